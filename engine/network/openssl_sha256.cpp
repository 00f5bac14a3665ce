// SPDX-License-Identifier: MIT
#include "network/network_impl.h"

#include <openssl/evp.h>

#include <fstream>
#include <memory>

namespace costscope::network {

namespace {
class Sha256 {
public:
    Sha256() : m_ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free) { EVP_DigestInit_ex(m_ctx.get(), EVP_sha256(), nullptr); }
    void add(const char* data, std::size_t n) { EVP_DigestUpdate(m_ctx.get(), data, n); }
    std::string hex()
    {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int n = 0;
        EVP_DigestFinal_ex(m_ctx.get(), digest, &n);
        static const char* digits = "0123456789abcdef";
        std::string out;
        for (unsigned int i = 0; i < n; ++i)
            out += {digits[digest[i] >> 4], digits[digest[i] & 15]};
        return out;
    }

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> m_ctx;
};
} // namespace

std::string sha256OfText(const std::string& text)
{
    Sha256 sha;
    sha.add(text.data(), text.size());
    return sha.hex();
}

Result<std::string> sha256OfFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Diagnostic::error(path + ": cannot be read");
    Sha256 sha;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0)
        sha.add(buf, static_cast<std::size_t>(in.gcount()));
    if (in.bad())
        return Diagnostic::error(path + ": read error");
    return sha.hex();
}

} // namespace costscope::network
