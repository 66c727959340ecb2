#include "app/cli/commandlinesyntax.h"

#include <QCommandLineParser>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

CommandLineSyntax::CommandLineSyntax(QCommandLineParser &parser, const QString &command)
    : m_parser(parser)
    , m_command(command)
    , m_help({u"h"_s, u"help"_s}, tr("Show this help."))
{
    m_parser.addOption(m_help);
}

CommandLineSyntax::Outcome CommandLineSyntax::parse(const QStringList &arguments, QTextStream &out,
                                                    QString *error)
{
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!m_parser.parse(args)) {
        if (error)
            *error = m_parser.errorText();
        return Outcome::Failed;
    }
    if (m_parser.isSet(m_help)) {
        out << m_parser.helpText().replace(u"[options]"_s, m_command + u" [options]"_s);
        out.flush();
        return Outcome::HelpShown;
    }
    return Outcome::Parsed;
}

} // namespace Loopscope::Cli
