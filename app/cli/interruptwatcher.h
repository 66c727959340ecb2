#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QSocketNotifier;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    Turns SIGINT and SIGTERM into a Qt signal on the event loop, so Ctrl+C can
    cancel a turn cleanly instead of killing the process mid-write. A signal
    handler may only write to a pipe; the notifier reads it on this thread.
    On Windows, Ctrl+C and Ctrl+Break come through a console control handler.
*/
class InterruptWatcher final : public QObject
{
    Q_OBJECT

public:
    explicit InterruptWatcher(QObject *parent = nullptr);
    ~InterruptWatcher() override;

signals:
    void interrupted(int count);

private:
    QSocketNotifier *m_notifier = nullptr;
    int m_count = 0;
};

} // namespace Loopscope::Cli
