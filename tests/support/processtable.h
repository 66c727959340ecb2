#pragma once

#include <QList>
#include <QtGlobal>

namespace Loopscope {

/*!
    What /proc says about the processes on this machine, for tests that check
    that nothing Loopscope started outlives it. A zombie (ended, not yet
    reaped) counts as gone: it runs nothing and holds no resources but a pid.
*/
class ProcessTable final
{
public:
    struct Entry
    {
        qint64 pid = 0;
        qint64 parent = 0;
        qint64 group = 0;
        qint64 session = 0;
    };

    ProcessTable() = delete;

    // Every process that has not ended.
    static QList<Entry> living();
    // The living processes of process group \a group.
    static QList<qint64> livingInGroup(qint64 group);
    // Whether \a pid names a process that has not ended.
    static bool isLiving(qint64 pid);
};

} // namespace Loopscope
