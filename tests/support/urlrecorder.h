#pragma once

#include <QList>
#include <QObject>
#include <QUrl>

namespace Loopscope::Testing {

// Stands in for the desktop: QDesktopServices::setUrlHandler(scheme, &recorder, "open") makes
// QDesktopServices::openUrl() record the URL here instead of starting a program.
class UrlRecorder final : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public slots:
    void open(const QUrl &url) { opened.append(url); }
};

} // namespace Loopscope::Testing
