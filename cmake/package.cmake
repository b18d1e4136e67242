# The installed package (cmake --install build --prefix P): headers, the
# floors' static libraries as exported targets tlmgpu::core ... tlmgpu::cli,
# tlmgpuConfig.cmake with its version file, the tlmgpu binary and the
# platforms it finds by name. A project outside the tree does
# find_package(tlmgpu) and links tlmgpu::cli (the whole command line, to
# which it adds its own blocks) or a lower floor; examples/custom-block.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TLMGPU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tlmgpu)

# Exported names without the prefix the build tree needs (tlmgpu::core, not
# tlmgpu::tlmgpu_core); the same names as aliases here, so a project that
# adds this tree with add_subdirectory links the same targets.
set(TLMGPU_EXPORTED core framework models workloads app cli)
set(TLMGPU_TARGETS tlmgpu_core tlmgpu_framework tlmgpu_models tlmgpu_workloads tlmgpu_lib
                   tlmgpu_cli)
foreach(name target IN ZIP_LISTS TLMGPU_EXPORTED TLMGPU_TARGETS)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  add_library(tlmgpu::${name} ALIAS ${target})
endforeach()

install(TARGETS ${TLMGPU_TARGETS} EXPORT tlmgpuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tlmgpu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT tlmgpuTargets NAMESPACE tlmgpu:: DESTINATION ${TLMGPU_CMAKE_DIR})

# Headers keep their source-root paths: include/tlmgpu/... and the models'
# and workloads' headers, which the framework's headers include as
# "models/..." and "workloads/...". src/ holds only private headers.
install(DIRECTORY include/tlmgpu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir models workloads)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "tests" EXCLUDE)
endforeach()
# The installed binary looks for platforms by name in ../share/tlmgpu/platforms
# (src/cli/commands.cpp, platforms_dir).
install(DIRECTORY platforms/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tlmgpu/platforms
        FILES_MATCHING PATTERN "*.json")

configure_package_config_file(cmake/tlmgpuConfig.cmake.in
  ${CMAKE_BINARY_DIR}/tlmgpuConfig.cmake INSTALL_DESTINATION ${TLMGPU_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_DATADIR)
# 0.x: a minor version may change the API, so only the same minor matches.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tlmgpuConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tlmgpuConfig.cmake ${CMAKE_BINARY_DIR}/tlmgpuConfigVersion.cmake
        DESTINATION ${TLMGPU_CMAKE_DIR})
