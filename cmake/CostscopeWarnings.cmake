# SPDX-License-Identifier: MIT
# costscope_warnings(target): the project's warning set; errors when COSTSCOPE_WERROR is on (CI).
# GCC 12's -Wrestrict and -Wstringop-overflow give false positives inside libstdc++'s std::string at -O3
# (GCC bugs 105329, 105651); they stay warnings there so a release build with -Werror is not broken by them.
function(costscope_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${COSTSCOPE_WERROR}>>:-Werror>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-error=restrict -Wno-error=stringop-overflow>)
endfunction()
