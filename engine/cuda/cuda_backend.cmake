# SPDX-License-Identifier: MIT
# The CUDA backend: built into costscope_engine when COSTSCOPE_WITH_CUDA is on and nvcc plus the toolkit are found.
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
    file(GLOB cuda_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cuda/*.cu
         ${CMAKE_CURRENT_SOURCE_DIR}/cuda/*.cpp)
    target_sources(costscope_engine PRIVATE ${cuda_sources})
    # sm_90 is the H200; sm_80 (A100) costs one more compile of the few kernels. The kernels are C++17.
    set(COSTSCOPE_CUDA_ARCHITECTURES "80;90" CACHE STRING "GPU architectures the CUDA kernels are built for")
    set_target_properties(costscope_engine PROPERTIES CUDA_ARCHITECTURES "${COSTSCOPE_CUDA_ARCHITECTURES}"
                                                      CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    target_compile_definitions(costscope_engine PUBLIC COSTSCOPE_HAVE_CUDA)
    target_compile_options(costscope_engine PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo>)
    target_link_libraries(costscope_engine PUBLIC CUDA::cudart CUDA::cublas CUDA::cufft)
  endif()
endif()
add_feature_info(CUDA COSTSCOPE_HAVE_CUDA "CUDA backend (cuBLAS, cuFFT, own kernels)")
