# SPDX-License-Identifier: MIT
# The CUDA backend: the plugin libcostscope_backend_cuda.so (component "cuda"), built when COSTSCOPE_WITH_CUDA is on
# and nvcc plus the toolkit are found. Only the plugin links the CUDA libraries: the binaries start without them.
# A machine without a GPU still builds it; the backend then lists no devices.
if(COSTSCOPE_WITH_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
    enable_language(CUDA)
    set(COSTSCOPE_HAVE_CUDA ON)
    set(COSTSCOPE_HAVE_CUDA ON PARENT_SCOPE)
    set(COSTSCOPE_CUDA_LIBRARY_DIR ${CUDAToolkit_LIBRARY_DIR} PARENT_SCOPE)
    file(GLOB cuda_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cuda/*.cu
         ${CMAKE_CURRENT_SOURCE_DIR}/cuda/*.cpp)
    list(FILTER cuda_sources EXCLUDE REGEX "/cuda_plugin\\.cpp$")
    add_library(cuda_backend_core STATIC ${cuda_sources})
    # sm_90 is the H100/H200; sm_80 (A100) costs one more compile of the few kernels. The kernels are C++17.
    set(COSTSCOPE_CUDA_ARCHITECTURES "80;90" CACHE STRING "GPU architectures the CUDA kernels are built for")
    set_target_properties(cuda_backend_core PROPERTIES CUDA_ARCHITECTURES "${COSTSCOPE_CUDA_ARCHITECTURES}"
                          CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
    target_compile_definitions(cuda_backend_core PUBLIC COSTSCOPE_HAVE_CUDA)
    target_compile_options(cuda_backend_core PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo>)
    target_link_libraries(cuda_backend_core PUBLIC costscope_engine CUDA::cudart CUDA::cublas CUDA::cublasLt CUDA::cufft)
    costscope_warnings(cuda_backend_core)
    target_link_libraries(costscope_engine_backends INTERFACE cuda_backend_core)

    costscope_add_plugin(costscope_backend_cuda COMPONENT cuda
      SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cuda/cuda_plugin.cpp LIBRARIES cuda_backend_core)
    # The toolkit is not a Debian package: the installed plugin finds its libraries where the toolkit installs them.
    set_target_properties(costscope_backend_cuda PROPERTIES INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
  endif()
endif()
add_feature_info(CUDA COSTSCOPE_HAVE_CUDA "CUDA backend plugin (cuBLAS, cuBLASLt, cuFFT, own kernels)")
