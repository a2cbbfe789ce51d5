# Installs the libraries as a CMake package: find_package(butterfly) gives butterfly::butterfly
# (the sampling library) and butterfly::lda (corpus/model I/O and the LDA sampler on top).
include(CMakePackageConfigHelpers)

# Two export sets, so that a consumer of the sampling library alone never needs zlib.
foreach(target butterfly butterfly_lda)
  set(set butterflyTargets)
  if(target STREQUAL "butterfly_lda")
    set(set butterflyLdaTargets)
  endif()
  install(TARGETS ${target} EXPORT ${set}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/ ${PROJECT_SOURCE_DIR}/lda/include/ ${BUTTERFLY_BACKEND_INCLUDE_DIRS}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(set butterflyTargets butterflyLdaTargets)
  install(EXPORT ${set} NAMESPACE butterfly:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/butterfly)
endforeach()

set(BUTTERFLY_CONFIGURED_BACKEND ${BACKEND})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/butterflyConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/butterflyConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/butterfly)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/butterflyConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
# BUTTERFLY_PACKAGE_FILES: CMake files the backend's find_dependency lines include.
install(FILES ${PROJECT_BINARY_DIR}/butterflyConfig.cmake
              ${PROJECT_BINARY_DIR}/butterflyConfigVersion.cmake ${BUTTERFLY_PACKAGE_FILES}
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/butterfly)
