#pragma once

#include "agent/knowledge/knowledgelibrary.h"

#include <QDir>
#include <QString>

namespace Loopscope::Testing {

// Two knowledge bases, "manual" and "notes", over one empty folder \a root/docs, in the knowledge
// folder \a root/knowledge (emptied first): what a test of choosing bases needs. Returns what went
// wrong, empty when both were added.
inline QString addManualAndNotes(const QString &root)
{
    QDir(root).removeRecursively();
    const QString docs = root + QStringLiteral("/docs");
    if (!QDir().mkpath(docs))
        return QStringLiteral("cannot make %1").arg(docs);
    KnowledgeLibrary library(root + QStringLiteral("/knowledge"));
    QString error = library.add({QStringLiteral("manual"), {docs}, {}});
    if (error.isEmpty())
        error = library.add({QStringLiteral("notes"), {docs}, {}});
    return error;
}

} // namespace Loopscope::Testing
