#include "tests/support/processtable.h"

#include <QDir>
#include <QFile>

#include <optional>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// /proc/<pid>/stat: "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parentheses.
std::optional<ProcessTable::Entry> readStat(qint64 pid)
{
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray stat = file.readAll();
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return std::nullopt;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    if (fields.size() < 4 || fields.at(0) == "Z" || fields.at(0) == "X")
        return std::nullopt;
    return ProcessTable::Entry{pid, fields.at(1).toLongLong(), fields.at(2).toLongLong(),
                               fields.at(3).toLongLong()};
}

} // namespace

QList<ProcessTable::Entry> ProcessTable::living()
{
    QList<Entry> entries;
    const QStringList names = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        bool isPid = false;
        const qint64 pid = name.toLongLong(&isPid);
        if (!isPid)
            continue;
        if (const std::optional<Entry> entry = readStat(pid))
            entries.append(*entry);
    }
    return entries;
}

QList<qint64> ProcessTable::livingInGroup(qint64 group)
{
    QList<qint64> pids;
    for (const Entry &entry : living()) {
        if (entry.group == group)
            pids.append(entry.pid);
    }
    return pids;
}

bool ProcessTable::isLiving(qint64 pid)
{
    return readStat(pid).has_value();
}

} // namespace Loopscope
