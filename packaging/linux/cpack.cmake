# CPack settings for the DEB and RPM packages; included by ../CMakeLists.txt
# before include(CPack). Build both with packaging/linux/build-packages.sh, or
# by hand: cmake --preset release && cmake --build build/release &&
# (cd build/release && cpack -G "DEB;RPM").
set(CPACK_GENERATOR "DEB;RPM")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")

# --- DEB ---
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${LOOPSCOPE_HOMEPAGE}")
# Library dependencies come from dpkg-shlibdeps. Qt loads its platform plugins
# (xcb) at run time, which no linker records: without them the window cannot
# open, so they are named by hand. So is Qt SQL's SQLite driver, a plugin the
# knowledge bases' index loads at run time.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libpoppler-qt6-3 (an attached PDF's text; built with libpoppler-qt6-dev) is named too, so the
# dependency does not rest on shlibdeps alone; the RPM's autoreq finds libpoppler-qt6.so.3. So is
# libssl3 (libcrypto signs OAuth client assertions for MCP servers; built with libssl-dev).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6sql6-sqlite, libpoppler-qt6-3, libssl3")
# Wayland sessions run natively with Qt's Wayland plugin (XWayland otherwise);
# API keys need a Secret Service provider (GNOME Keyring, KWallet...).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnome-keyring | kwalletmanager")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# No maintainer scripts: the desktop, MIME and icon caches are refreshed by
# the dpkg triggers of desktop-file-utils, shared-mime-info and the icon
# themes.

# --- RPM ---
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "Proprietary")
set(CPACK_RPM_PACKAGE_GROUP "Development/Tools")
set(CPACK_RPM_PACKAGE_URL "${LOOPSCOPE_HOMEPAGE}")
# rpmbuild finds the shared libraries the executable needs (libQt6*.so.6 ...).
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
# The SQLite driver plugin (no linker records it): Fedora ships it in qt6-qtbase.
set(CPACK_RPM_PACKAGE_REQUIRES "qt6-qtbase")
set(CPACK_RPM_PACKAGE_AUTOPROV OFF)
# Directories that belong to the file system or to other packages: the RPM
# must not claim them.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/share/applications
    /usr/share/bash-completion
    /usr/share/bash-completion/completions
    /usr/share/icons
    /usr/share/icons/hicolor
    /usr/share/man
    /usr/share/man/man1
    /usr/share/metainfo
    /usr/share/mime
    /usr/share/mime/packages)
foreach(size 16 22 24 32 48 64 128 256 scalable)
    if(size STREQUAL "scalable")
        set(dir /usr/share/icons/hicolor/scalable)
    else()
        set(dir /usr/share/icons/hicolor/${size}x${size})
    endif()
    list(APPEND CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION ${dir} ${dir}/apps)
endforeach()
