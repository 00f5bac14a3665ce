# SPDX-License-Identifier: MIT
# Run-time plugins: shared modules that binaries dlopen on first use (model/plugins/shared_module.h says where they
# are looked for). In the build tree they all land in <build>/plugins; installed, in COSTSCOPE_INSTALL_PLUGINDIR.
set(COSTSCOPE_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/costscope/plugins)
set(COSTSCOPE_BUILD_PLUGIN_DIR ${PROJECT_BINARY_DIR}/plugins)
file(RELATIVE_PATH COSTSCOPE_PLUGIN_INSTALL_RELDIR /${CMAKE_INSTALL_BINDIR} /${COSTSCOPE_INSTALL_PLUGINDIR})

# costscope_add_plugin(TARGET COMPONENT component SOURCES ... LIBRARIES ...)
# A MODULE library that exports only what its sources mark visible: the static libraries it links (its own copy of
# the engine and model code) are hidden, so that the binary's copy and the plugin's never interpose on each other.
function(costscope_add_plugin target)
  cmake_parse_arguments(arg "" "COMPONENT" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE ${arg_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${COSTSCOPE_BUILD_PLUGIN_DIR}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined -Wl,--as-needed)
  costscope_warnings(${target})
  install(TARGETS ${target} LIBRARY DESTINATION ${COSTSCOPE_INSTALL_PLUGINDIR} COMPONENT ${arg_COMPONENT})
endfunction()

# costscope_library_plugin(TARGET): a plugin that holds code the binaries would otherwise link (ONNX import, XGBoost
# training, libcurl and libcrypto), loaded by the libraries on first use so that a process that never needs it does
# not pay for loading it. costscope_uses_library_plugins(TARGET) makes a binary depend on all of them, so that
# building the binary alone builds what it may load.
function(costscope_library_plugin target)
  set_property(GLOBAL APPEND PROPERTY COSTSCOPE_LIBRARY_PLUGINS ${target})
endfunction()

function(costscope_uses_library_plugins target)
  get_property(plugins GLOBAL PROPERTY COSTSCOPE_LIBRARY_PLUGINS)
  if(plugins)
    add_dependencies(${target} ${plugins})
  endif()
endfunction()
