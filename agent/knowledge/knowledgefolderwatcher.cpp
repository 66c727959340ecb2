#include "agent/knowledge/knowledgefolderwatcher.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

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

QStringList KnowledgeFolderWatcher::pathsToWatch(const KnowledgeBaseDefinition &base, const QString &ignored)
{
    QStringList paths;
    for (const QString &path : base.paths) {
        const QFileInfo info(path);
        if (!info.exists())
            continue;
        paths.append(path);
        if (!info.isDir())
            continue;
        // Hidden folders are left out, as the indexer leaves them out.
        QDirIterator it(path, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString folder = it.next();
            if (ignored.isEmpty() || !isUnder(folder, ignored))
                paths.append(folder);
        }
    }
    return paths;
}

void KnowledgeFolderWatcher::setBases(const QList<KnowledgeBaseDefinition> &bases)
{
    if (const QStringList watched = watchedPaths(); !watched.isEmpty())
        m_watcher.removePaths(watched);
    qDeleteAll(m_settling);
    m_settling.clear();
    ++m_generation;
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
    auto *walk = new QFutureWatcher<QStringList>(this);
    connect(walk, &QFutureWatcherBase::finished, this, [this, walk, name, generation = m_generation] {
        walk->deleteLater();
        if (generation == m_generation)
            addWatches(name, walk->result());
    });
    walk->setFuture(QtConcurrent::run(pathsToWatch, *base, m_ignored));
}

void KnowledgeFolderWatcher::addWatches(const QString &name, const QStringList &paths)
{
    const QStringList directories = m_watcher.directories();
    const QStringList files = m_watcher.files();
    const QSet<QString> watched(directories.cbegin(), directories.cend());
    QStringList added;
    for (const QString &path : paths) {
        if (!watched.contains(path) && !files.contains(path))
            added.append(path);
    }
    if (!added.isEmpty())
        m_watcher.addPaths(
            added); // beyond the system's limit of watches some are not watched: a re-index finds them
    emit watching(name);
}

QStringList KnowledgeFolderWatcher::watchedPaths() const
{
    return m_watcher.directories() + m_watcher.files();
}

void KnowledgeFolderWatcher::onPathChanged(const QString &path)
{
    if (!m_ignored.isEmpty() && isUnder(path, m_ignored))
        return;
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
