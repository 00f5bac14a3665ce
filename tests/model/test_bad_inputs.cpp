// SPDX-License-Identifier: MIT
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QDir>
#include <QTest>

#include <set>

using namespace costscope;
using namespace costscope::test;

namespace {
struct BadFile {
    const char* file;
    // What follows the file name in the message, location part included (":LINE:COL: ..." or ": node N (name): ...").
    const char* expected;
};

// tests/data/bad/rlx_* and doc_*: one row per file (the onnx_* files there belong to the ONNX importer's tests).
const std::vector<BadFile>& badFiles()
{
    static const std::vector<BadFile> rows = {
        {"rlx_bad_dim_tag.json", R"(: node 1 (w): unknown dim kind "Fixed")"},
        {"rlx_bad_utf8.json",
         R"(:1:11: invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte)"},
        {"rlx_binary_object_payload.json",
         R"(: node 1: Binary payload must be a string such as "Add" or an object with a string "op", found {"kind":"Add"})"},
        {"rlx_constant_byte_300.json", R"(: node 1: Constant data must hold bytes 0..255, found 300)"},
        {"rlx_constant_data_string.json", R"(: node 1: Constant data must be an array of bytes)"},
        {"rlx_cycle_two_nodes.json", R"(: node 1 (a): is part of a cycle)"},
        {"rlx_dangling_input.json", R"(: node 2 (mm): input 1 refers to node 9, which does not exist)"},
        {"rlx_deep_nesting.json", R"(:1:304: JSON nested deeper than 256 levels)"},
        {"rlx_dim_bare_number.json", R"(: node 1 (w): a dim must be {"Static": n} or {"Dynamic": s}, found 8)"},
        {"rlx_dim_float.json", R"(: node 1 (w): dim value must be an integer, found 2.5)"},
        {"rlx_dim_over_int64.json", R"(: node 1 (w): dim 18446744073709551615 does not fit in 64 bits)"},
        {"rlx_dims_not_array.json", R"(: node 1 (w): shape dims must be an array)"},
        {"rlx_dtype_number.json", R"(: node 1 (w): shape dtype must be a string)"},
        {"rlx_duplicate_ids.json", R"(: node 1 (w2): duplicate node id 1)"},
        {"rlx_empty.json", R"(:1:1: file is empty)"},
        {"rlx_giant_dims.json",
         R"(: node 1 (w): shape F32[4611686018427387904,4611686018427387904] has more bytes than 64 bits can count)"},
        {"rlx_input_id_string.json", R"(: node 2 (mm): inputs must be node ids, found "1")"},
        {"rlx_inputs_not_array.json", R"(: node 2 (mm): node has no "inputs" array)"},
        {"rlx_matmul_one_input.json", R"(: node 2 (mm): MatMul takes 2 input(s), has 1)"},
        {"rlx_missing_output.json", R"(: output 42 does not exist)"},
        {"rlx_name_number.json", R"(: "name" must be a string)"},
        {"rlx_negative_dim.json", R"(: node 1 (w): dim -4 is negative)"},
        {"rlx_no_nodes.json", R"(: missing "nodes" array)"},
        {"rlx_no_outputs.json", R"(: missing "outputs" array)"},
        {"rlx_node_id_string.json", R"(: nodes[1]: node has no integer "id")"},
        {"rlx_node_name_number.json", R"(: node 1: name must be a string or null)"},
        {"rlx_node_no_id.json", R"(: nodes[1]: node has no integer "id")"},
        {"rlx_node_no_op.json", R"(: node 1: node has no "op")"},
        {"rlx_node_no_shape.json", R"(: node 1 (w): node has no "shape")"},
        {"rlx_node_not_object.json", R"(: nodes[1]: a node must be an object)"},
        {"rlx_nodes_not_array.json", R"(: missing "nodes" array)"},
        {"rlx_number_overflow.json", R"(:4:14: invalid JSON: number overflow parsing '1e88128')"},
        {"rlx_op_needs_payload.json", R"(: node 2: op Conv needs a payload)"},
        {"rlx_op_number.json", R"(: node 1: op must be a name or an object with one key, found 17)"},
        {"rlx_op_two_keys.json",
         R"(: node 1: op must be a name or an object with one key, found {"Binary":"Add","Activation":"Relu"})"},
        {"rlx_output_string.json", R"(: outputs must be node ids, found "2")"},
        {"rlx_random_bytes.json", R"(:1:1: invalid JSON: syntax error while parsing value - invalid literal)"},
        {"rlx_rank9.json", R"(: node 1 (w): rank 9 is over the limit of 8)"},
        {"rlx_self_loop.json", R"(: node 1 (loop): is part of a cycle)"},
        {"rlx_shape_array.json", R"(: node 1 (w): shape must be an object with "dims" and "dtype")"},
        {"rlx_shape_no_dtype.json", R"(: node 1 (w): shape must be an object with "dims" and "dtype")"},
        {"rlx_struct_payload_string.json", R"(: node 2: Conv payload must be an object, found "3x3")"},
        {"rlx_symbols_bad_key.json", R"(: costscope_symbols entry "batch" must map a symbol number to a name)"},
        {"rlx_symbols_huge_key.json",
         R"(: costscope_symbols entry "99999999999999999999999" must map a symbol number to a name)"},
        {"rlx_top_array.json", R"(: top level must be an object with "nodes" and "outputs")"},
        {"rlx_trailing_comma.json",
         R"(:4:16: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal)"},
        {"rlx_truncated.json",
         R"(:47:3: invalid JSON: syntax error while parsing object key - unexpected end of input)"},
        {"rlx_unknown_dtype.json", R"(: node 1 (w): unknown dtype "F33")"},
        {"rlx_unterminated_string.json",
         R"(:2:14: invalid JSON: syntax error while parsing value - invalid string: control character U+000A (LF))"},
        {"doc_binding_string.costscope", R"(: binding "batch" must be an integer)"},
        {"doc_bindings_array.costscope", R"(: "bindings" must be an object of symbol → integer)"},
        {"doc_cost_model_number.costscope", R"(: "cost_model" must be a string)"},
        {"doc_deep_nesting.costscope", R"(:1:1322: JSON nested deeper than 256 levels)"},
        {"doc_devices_not_list.costscope", R"(: "devices" must be a list of names)"},
        {"doc_empty.costscope", R"(:1:1: file is empty)"},
        {"doc_graph_cycle.costscope", R"(: node 1 (loop): is part of a cycle)"},
        {"doc_graph_number.costscope", R"(: top level must be an object with "nodes" and "outputs")"},
        {"doc_malformed.costscope",
         R"(:4:8: invalid JSON: syntax error while parsing object - unexpected string literal; expected '}')"},
        {"doc_number_overflow.costscope", R"(:1:36: invalid JSON: number overflow parsing '1e999')"},
        {"doc_format_number.costscope", R"(: not a Costscope document ("format": "costscope" missing))"},
        {"doc_no_format.costscope", R"(: not a Costscope document ("format": "costscope" missing))"},
        {"doc_no_graph.costscope", R"(: document has no "graph")"},
        {"doc_no_version.costscope", R"(: document has no integer "version")"},
        {"doc_position_key.costscope", R"(: "positions" key "mm" is not a node id)"},
        {"doc_position_short.costscope", R"(: position of node 2 must be [x, y])"},
        {"doc_positions_array.costscope", R"(: "positions" must be an object of node id → [x, y])"},
        {"doc_profiles_numbers.costscope", R"(: "profiles" must be a list of names)"},
        {"doc_random_bytes.costscope", R"(:1:1: invalid JSON: syntax error while parsing value - invalid literal)"},
        {"doc_top_array.costscope", R"(: not a Costscope document ("format": "costscope" missing))"},
        {"doc_version99.costscope",
         R"(: document version 99 is newer than this Costscope reads (1); update Costscope)"},
        {"doc_version_string.costscope", R"(: document has no integer "version")"},
        {"doc_wrong_format.costscope", R"(: not a Costscope document ("format": "costscope" missing))"},
    };
    return rows;
}

bool isOurs(const QString& name)
{
    return name.startsWith("rlx_") || name.startsWith("doc_");
}
} // namespace

class TestBadInputs : public QObject {
    Q_OBJECT
private slots:
    void loadFailsWithMessage_data();
    void loadFailsWithMessage();
    void cliInfoExitsWithBadInput_data();
    void cliInfoExitsWithBadInput();
    void everyBadFileHasARow();
};

void TestBadInputs::loadFailsWithMessage_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    for (const BadFile& b : badFiles())
        QTest::newRow(b.file) << QString(b.file) << QString::fromUtf8(b.expected);
}

void TestBadInputs::loadFailsWithMessage()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const std::string path = testDataPath("bad/" + file).toStdString();
    auto loaded = loadGraphFile(path);
    QVERIFY2(!loaded, "loaded a file that should have been rejected");
    QVERIFY(loaded.error().isError());
    const std::string message = loaded.error().format(path);
    const std::string want = path + expected.toStdString();
    QVERIFY2(message.rfind(want, 0) == 0, ("got:  " + message + "\nwant: " + want).c_str());
}

void TestBadInputs::cliInfoExitsWithBadInput_data()
{
    loadFailsWithMessage_data();
}

void TestBadInputs::cliInfoExitsWithBadInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const QString path = testDataPath("bad/" + file);
    QByteArray out, err;
    const int code = runCli({"info", path}, &out, &err);
    QCOMPARE(code, 3);
    QVERIFY2(err.startsWith((path + expected).toUtf8()), err.constData());
}

void TestBadInputs::everyBadFileHasARow()
{
    std::set<QString> rows;
    for (const BadFile& b : badFiles())
        rows.insert(b.file);
    int ours = 0;
    for (const QString& f : QDir(testDataPath("bad")).entryList(QDir::Files)) {
        if (!isOurs(f))
            continue;
        ++ours;
        QVERIFY2(rows.count(f), qPrintable(f + " has no expected message"));
    }
    QCOMPARE(ours, int(badFiles().size()));
    QVERIFY(ours >= 30);
}

QTEST_GUILESS_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
