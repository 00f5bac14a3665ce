# SPDX-License-Identifier: MIT
# Compiles engine/vulkan/shaders/*.comp to SPIR-V with glslc and embeds the words in a generated .cpp, so that
# the binary needs no shader files at run time.
set(vk_dir ${CMAKE_CURRENT_SOURCE_DIR}/vulkan)
file(GLOB vk_shaders CONFIGURE_DEPENDS ${vk_dir}/shaders/*.comp)
file(GLOB vk_shader_includes CONFIGURE_DEPENDS ${vk_dir}/shaders/*.glsl)
set(vk_spv_dir ${CMAKE_CURRENT_BINARY_DIR}/spirv)
file(MAKE_DIRECTORY ${vk_spv_dir})
set(vk_spvs "")
foreach(src IN LISTS vk_shaders)
  get_filename_component(name ${src} NAME_WE)
  set(spv ${vk_spv_dir}/${name}.spv)
  add_custom_command(OUTPUT ${spv}
    COMMAND ${GLSLC_EXECUTABLE} --target-env=vulkan1.2 -O -Werror -I ${vk_dir}/shaders -o ${spv} ${src}
    DEPENDS ${src} ${vk_shader_includes}
    COMMENT "glslc ${name}.comp" VERBATIM)
  list(APPEND vk_spvs ${spv})
endforeach()
set(vk_embedded ${CMAKE_CURRENT_BINARY_DIR}/vulkan_shaders_embedded.cpp)
add_custom_command(OUTPUT ${vk_embedded}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${vk_embedded} "-DINPUTS=${vk_spvs}" -P ${vk_dir}/embed_spirv.cmake
  DEPENDS ${vk_spvs} ${vk_dir}/embed_spirv.cmake
  COMMENT "Embedding SPIR-V" VERBATIM)

# The backend's code, linked directly by tests and benchmarks, and the plugin libcostscope_backend_vulkan.so that the
# binaries load: only the plugin links the Vulkan loader.
file(GLOB vk_sources CONFIGURE_DEPENDS ${vk_dir}/*.cpp)
list(FILTER vk_sources EXCLUDE REGEX "/vulkan_plugin\\.cpp$")
add_library(vulkan_backend_core STATIC ${vk_sources} ${vk_embedded})
set_target_properties(vulkan_backend_core PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(vulkan_backend_core PUBLIC costscope_engine Vulkan::Vulkan)
target_compile_definitions(vulkan_backend_core PUBLIC COSTSCOPE_HAVE_VULKAN)
costscope_warnings(vulkan_backend_core)
target_link_libraries(costscope_engine_backends INTERFACE vulkan_backend_core)
costscope_add_plugin(costscope_backend_vulkan COMPONENT main
  SOURCES ${vk_dir}/vulkan_plugin.cpp LIBRARIES vulkan_backend_core)
