#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QSocketNotifier;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    Turns SIGINT, SIGTERM and SIGHUP (the terminal or the SSH connection
    closed) into a Qt signal on the event loop, so Ctrl+C can cancel a turn
    cleanly instead of killing the process mid-write. A signal handler may
    only write to a pipe; the notifier reads it on this thread. From the
    second signal on, the handler also hurries the ending of every process
    group (ProcessGroups::hurry()), also while the event loop no longer runs;
    after the watcher is gone, while the program exits, the first signal
    hurries and the next one has its default action.
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
