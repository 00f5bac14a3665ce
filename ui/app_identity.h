// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

// The reverse-DNS application id of packaging/: the desktop file, AppStream metainfo, MIME types and icons are
// named after it (CMake's COSTSCOPE_APP_ID).
inline constexpr const char* kAppId = COSTSCOPE_APP_ID;

// Organisation, application name and version, and the desktop file name, so that desktop shells and Wayland
// compositors match the windows with packaging/<kAppId>.desktop (its icon, its name). Call after the
// QApplication exists.
void setApplicationIdentity();

} // namespace costscope
