# SPDX-License-Identifier: MIT
# costscope_warnings(target): the project's warning set; errors when COSTSCOPE_WERROR is on (CI).
function(costscope_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${COSTSCOPE_WERROR}>>:-Werror>)
endfunction()
