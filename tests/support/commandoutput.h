#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace Loopscope::Testing {

/*! What a `loopscope COMMAND` printed and returned, run in the test's process. */
struct CommandOutput
{
    int code = -1;
    QStringList lines; // stdout, without empty lines
    QString errors;    // stderr
};

// Runs `loopscope <name> <arguments>` with a Command that prints on the streams it is given.
template<typename Command>
CommandOutput runCommand(const QString &name, const QStringList &arguments)
{
    QString out;
    QString err;
    QTextStream outStream(&out);
    QTextStream errStream(&err);
    CommandOutput output;
    output.code
        = Command(&outStream, &errStream).exec(QStringList{QStringLiteral("loopscope"), name} + arguments);
    output.lines = out.split(u'\n', Qt::SkipEmptyParts);
    output.errors = err;
    return output;
}

} // namespace Loopscope::Testing
