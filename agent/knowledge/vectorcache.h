#pragma once

#include "agent/knowledge/vectorsearch.h"

#include <QString>

#include <memory>

namespace Loopscope {

/*!
    The vectors of the indexes this process searched, kept in memory between
    searches: reading 300 MB of BLOBs through SQLite and Qt SQL for every
    question costs several times the dot products themselves (see the
    knowledge benchmark in the README). One matrix per index file, checked
    against the index's vectors version (a value every write that changes the
    vectors renews, in the write's transaction), so a search never uses
    vectors older than those the index held when it began. Shared by the
    threads that search; a matrix in use stays alive until its last search
    ends. The block stays for the life of the process: it is what a search
    of that base costs in memory (the README's benchmark: 313 MB at 100k
    passages of 768 dimensions).
*/
namespace VectorCache {

// The matrix of the index at path, when the one held has that version; else nullptr.
std::shared_ptr<const VectorMatrix> find(const QString &path, const QString &version);
// Holds matrix for the index at path, replacing the one held before.
void keep(const QString &path, std::shared_ptr<const VectorMatrix> matrix);
// Drops what is held for the index at path (it was removed or rebuilt).
void forget(const QString &path);

} // namespace VectorCache

} // namespace Loopscope
