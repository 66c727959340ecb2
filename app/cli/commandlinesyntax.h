#pragma once

#include <QCommandLineOption>
#include <QCoreApplication>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
class QTextStream;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    What every "loopscope COMMAND [options]" shares: the command's name is
    not an argument of its own, and --help prints the command's usage with
    its name in it.
*/
class CommandLineSyntax final
{
    Q_DECLARE_TR_FUNCTIONS(CommandLineSyntax)

public:
    enum class Outcome { Parsed, HelpShown, Failed };

    // Adds -h/--help to \a parser, which must not have it yet.
    CommandLineSyntax(QCommandLineParser &parser, const QString &command);

    // Parses \a arguments (the program, the command, then its own). On --help
    // the usage goes to \a out; on a bad argument *error says what was wrong.
    Outcome parse(const QStringList &arguments, QTextStream &out, QString *error);

private:
    QCommandLineParser &m_parser;
    QString m_command;
    QCommandLineOption m_help;
};

} // namespace Loopscope::Cli
