#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace Loopscope::Cli {

/*!
    `loopscope export FILE --format md|html|otlp [--output OUT]`: a saved
    session as Markdown, standalone HTML or OpenTelemetry spans (OTLP/JSON),
    on stdout or into a file. Exit 0 on success, 2 for bad usage or a file
    that cannot be read or written.
*/
class ExportCommand final
{
    Q_DECLARE_TR_FUNCTIONS(ExportCommand)

public:
    // arguments: starting with the program name and "export".
    int exec(const QStringList &arguments);
};

} // namespace Loopscope::Cli
