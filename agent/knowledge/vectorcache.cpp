#include "agent/knowledge/vectorcache.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

namespace Loopscope::VectorCache {

namespace {

struct Held
{
    QMutex mutex;
    QHash<QString, std::shared_ptr<const VectorMatrix>> matrices;
};

Held &held()
{
    static Held instance;
    return instance;
}

} // namespace

std::shared_ptr<const VectorMatrix> find(const QString &path, const QString &version)
{
    QMutexLocker locker(&held().mutex);
    const auto found = held().matrices.constFind(path);
    if (found == held().matrices.cend() || (*found)->version != version)
        return nullptr;
    return *found;
}

void keep(const QString &path, std::shared_ptr<const VectorMatrix> matrix)
{
    QMutexLocker locker(&held().mutex);
    held().matrices.insert(path, std::move(matrix));
}

void forget(const QString &path)
{
    QMutexLocker locker(&held().mutex);
    held().matrices.remove(path);
}

} // namespace Loopscope::VectorCache
