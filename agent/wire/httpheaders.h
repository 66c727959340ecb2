#pragma once

#include <QByteArray>
#include <QList>

#include <utility>

namespace Loopscope {

//! An HTTP message's header fields, in order, as sent or received.
using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

} // namespace Loopscope
