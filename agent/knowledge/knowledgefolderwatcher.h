#pragma once

#include "agent/knowledge/knowledgelibrary.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>

namespace Loopscope {

/*!
    Watches the folders (with their subfolders) and files of the knowledge
    bases while the app runs, and says, once a burst of changes has settled
    (2 s by default: saving a file is often several writes), which base
    changed, for an incremental re-index. A listed folder that is gone is
    reported, not fatal: what was indexed from it is kept, and the folder is
    watched again once the base is re-watched after it is back. The folders
    are walked on a pool thread (a tree may be large); the index's own folder
    is never watched, so writing an index never re-indexes a base over it.
*/
class KnowledgeFolderWatcher final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultSettleMs = 2000;

    explicit KnowledgeFolderWatcher(QObject *parent = nullptr);

    // Watches exactly these bases (and their subfolders as they are now).
    void setBases(const QList<KnowledgeBaseDefinition> &bases);
    // Watches \a base's folders afresh: new subfolders, a folder that is back.
    void rewatch(const QString &name);
    void setSettleMs(int milliseconds) { m_settleMs = milliseconds; }
    // Changes under \a directory (the indexes' folder) are none of the bases' changes.
    void setIgnoredDirectory(const QString &directory) { m_ignored = directory; }
    QStringList watchedPaths() const;

signals:
    // Something under \a name's paths changed and has settled.
    void changed(const QString &name);
    // A path of \a name that is gone.
    void pathMissing(const QString &name, const QString &path);
    // \a name's folders that exist are watched now (after setBases() or rewatch()).
    void watching(const QString &name);

private:
    void onPathChanged(const QString &path);
    void settle(const QString &name);
    // \a base's paths and every folder under them that exist now.
    static QStringList pathsToWatch(const KnowledgeBaseDefinition &base, const QString &ignored);
    void addWatches(const QString &name, const QStringList &paths);

    QFileSystemWatcher m_watcher;
    QHash<QString, KnowledgeBaseDefinition> m_bases;
    QHash<QString, QTimer *> m_settling; // by base name, children of this
    int m_settleMs = DefaultSettleMs;
    QString m_ignored;
    int m_generation = 0; // a walk started before the last setBases() is dropped
};

} // namespace Loopscope
