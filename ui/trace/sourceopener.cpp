#include "ui/trace/sourceopener.h"

#include <QDesktopServices>
#include <QUrl>

namespace Loopscope::Ui {

SourceOpener desktopSourceOpener()
{
    return [](const QString &path, int line) {
        Q_UNUSED(line)
        QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    };
}

} // namespace Loopscope::Ui
