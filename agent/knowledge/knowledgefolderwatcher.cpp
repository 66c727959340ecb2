#include "agent/knowledge/knowledgefolderwatcher.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

bool isUnder(const QString &path, const QString &root)
{
    return path == root || path.startsWith(root.endsWith(u'/') ? root : root + u'/');
}

} // namespace

KnowledgeFolderWatcher::KnowledgeFolderWatcher(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &KnowledgeFolderWatcher::onPathChanged);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &KnowledgeFolderWatcher::onPathChanged);
}

QStringList KnowledgeFolderWatcher::pathsToWatch(const KnowledgeBaseDefinition &base)
{
    QStringList paths;
    for (const QString &path : base.paths) {
        const QFileInfo info(path);
        if (!info.exists())
            continue;
        paths.append(path);
        if (!info.isDir())
            continue;
        QDirIterator it(path, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext())
            paths.append(it.next());
    }
    return paths;
}

void KnowledgeFolderWatcher::setBases(const QList<KnowledgeBaseDefinition> &bases)
{
    if (const QStringList watched = watchedPaths(); !watched.isEmpty())
        m_watcher.removePaths(watched);
    qDeleteAll(m_settling);
    m_settling.clear();
    m_bases.clear();
    for (const KnowledgeBaseDefinition &base : bases)
        m_bases.insert(base.name, base);
    for (const KnowledgeBaseDefinition &base : bases)
        rewatch(base.name);
}

void KnowledgeFolderWatcher::rewatch(const QString &name)
{
    const auto base = m_bases.constFind(name);
    if (base == m_bases.cend())
        return;
    const QSet<QString> watched(m_watcher.directories().cbegin(), m_watcher.directories().cend());
    QStringList added;
    for (const QString &path : pathsToWatch(*base)) {
        if (!watched.contains(path) && !m_watcher.files().contains(path))
            added.append(path);
    }
    if (!added.isEmpty())
        m_watcher.addPaths(added);
}

QStringList KnowledgeFolderWatcher::watchedPaths() const
{
    return m_watcher.directories() + m_watcher.files();
}

void KnowledgeFolderWatcher::onPathChanged(const QString &path)
{
    for (auto it = m_bases.cbegin(); it != m_bases.cend(); ++it) {
        const bool concerned = std::any_of(it->paths.cbegin(), it->paths.cend(),
                                           [&](const QString &root) { return isUnder(path, root); });
        if (!concerned)
            continue;
        QTimer *&timer = m_settling[it.key()];
        if (!timer) {
            timer = new QTimer(this);
            timer->setSingleShot(true);
            connect(timer, &QTimer::timeout, this, [this, name = it.key()] { settle(name); });
        }
        timer->start(m_settleMs); // a burst of changes restarts it
    }
}

void KnowledgeFolderWatcher::settle(const QString &name)
{
    const auto base = m_bases.constFind(name);
    if (base == m_bases.cend())
        return;
    for (const QString &path : base->paths) {
        if (!QFileInfo::exists(path))
            emit pathMissing(name, path);
    }
    rewatch(name); // a new subfolder is watched from now on
    emit changed(name);
}

} // namespace Loopscope
