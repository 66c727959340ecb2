#pragma once

#include "agent/eval/evalcase.h"

#include <QCoreApplication>
#include <QDir>

#include <optional>

namespace Loopscope {

/*!
    A suite of loop regression tests: a JSON Lines file, one case per line.
    Everything is read and checked before anything runs: an unknown field, a
    wrong type, a bad regular expression, a missing or unreadable session
    file each give a sentence starting with the line's number.
*/
class EvalSuite final
{
    Q_DECLARE_TR_FUNCTIONS(EvalSuite)

public:
    QString path;
    QString name; // the file's name without .jsonl, for the report
    QList<EvalCase> cases;

    static std::optional<EvalSuite> load(const QString &path, QString *error);
    // \a folder resolves relative paths (sessions, workspaces) and is the default workspace.
    static std::optional<QList<EvalCase>> parse(const QByteArray &bytes, const QDir &folder, QString *error);
};

} // namespace Loopscope
