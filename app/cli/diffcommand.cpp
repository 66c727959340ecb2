#include "app/cli/diffcommand.h"

#include "app/cli/commandlinesyntax.h"

#include "agent/compare/runcomparison.h"

#include <QCommandLineParser>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

constexpr qsizetype LabelWidth = 22;
constexpr qsizetype CellWidth = 40;

QString fitted(const QString &text, qsizetype width)
{
    if (text.size() > width)
        return text.left(width - 1) + u'…';
    return text.leftJustified(width);
}

QChar mark(const ComparisonRow &row)
{
    if (!row.counted)
        return u'~';
    switch (row.status) {
    case ComparisonRow::Status::Same: return u'=';
    case ComparisonRow::Status::Differs: return u'!';
    case ComparisonRow::Status::OnlyLeft: return u'<';
    case ComparisonRow::Status::OnlyRight: return u'>';
    }
    return u'?';
}

// A turn number from 1, or the last turn (0) when the option is not given; nullopt when it is not one.
std::optional<int> turnNumber(const QCommandLineParser &parser, const QCommandLineOption &option)
{
    if (!parser.isSet(option))
        return 0;
    bool ok = false;
    const int number = parser.value(option).toInt(&ok);
    return ok && number >= 1 ? std::optional<int>(number) : std::nullopt;
}

} // namespace

DiffCommand::DiffCommand()
    : m_stdout(stdout)
    , m_stderr(stderr)
    , m_out(&m_stdout)
    , m_err(&m_stderr)
{}

DiffCommand::DiffCommand(QTextStream *out, QTextStream *err)
    : m_out(out)
    , m_err(err)
{}

QStringList DiffCommand::stepLines(const RunComparison &comparison)
{
    QStringList lines;
    const QList<ComparisonRow> &rows = comparison.rows();
    QList<int> depth(rows.size(), 0);
    for (int i = 0; i < rows.size(); ++i) {
        const int parent = rows.at(i).parent;
        depth[i] = parent >= 0 ? depth.at(parent) + 1 : 0;
        const ComparisonRow &row = rows.at(i);
        const QString first = i == comparison.firstDifference() ? u"*"_s : u" "_s;
        const QString label = fitted(QString(depth.at(i) * 2, u' ') + row.label, LabelWidth);
        QString line
            = first + mark(row) + u' ' + label + u' ' + fitted(row.left, CellWidth) + u" | "_s + row.right;
        while (line.endsWith(u' '))
            line.chop(1);
        lines.append(line);
    }
    return lines;
}

int DiffCommand::exec(const QStringList &arguments)
{
    const auto printError = [this](const QString &message) {
        *m_err << "loopscope diff: " << message << Qt::endl;
    };

    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Compare a turn of two saved sessions step by step: iterations, model requests (messages and\n"
           "parameters), tool calls and arguments, results and answers, aligned; tokens, time and cost are\n"
           "shown but never count as a difference. Prints a summary line, e.g. \"diverged at iteration 2:\n"
           "calculator arguments differ\", then the steps:\n"
           "  =  the same       !  different     <  only in A     >  only in B\n"
           "  ~  tokens, time, cost (shown, not compared)          *  the first difference\n\n"
           "Exit codes:\n"
           "  0  the turns are the same\n"
           "  1  they differ\n"
           "  2  bad usage, an unreadable or malformed file, or no such turn\n"));
    CommandLineSyntax syntax(parser, u"diff"_s);
    const QCommandLineOption turn(
        u"turn"_s,
        tr("The turn to compare (from 1, as replay lists them; default: the last), in "
           "both sessions unless --turn-b is given."),
        u"n"_s);
    const QCommandLineOption turnB(u"turn-b"_s, tr("The turn of B to compare (default: as --turn)."), u"m"_s);
    parser.addOptions({turn, turnB});
    parser.addPositionalArgument(u"A"_s, tr("A saved session (*.loopscope.json)."), u"A"_s);
    parser.addPositionalArgument(u"B"_s, tr("Another saved session, or the same one with --turn-b."), u"B"_s);

    QString usageError;
    switch (syntax.parse(arguments, *m_out, &usageError)) {
    case CommandLineSyntax::Outcome::Failed: printError(usageError); return BadInput;
    case CommandLineSyntax::Outcome::HelpShown: return Equal;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printError(tr("give two saved session files (see --help)"));
        return BadInput;
    }
    const std::optional<int> leftNumber = turnNumber(parser, turn);
    std::optional<int> rightNumber = parser.isSet(turnB) ? turnNumber(parser, turnB) : leftNumber;
    if (!leftNumber || !rightNumber) {
        printError(tr("--turn and --turn-b take a turn number from 1"));
        return BadInput;
    }

    QList<ComparedTurn> chosen;
    for (int side = 0; side < 2; ++side) {
        const QString &path = positional.at(side);
        const ComparedSession session = ComparedSession::load(path);
        if (!session.isValid()) {
            printError(tr("cannot read \"%1\": %2").arg(path, session.error));
            return BadInput;
        }
        if (session.turns.isEmpty()) {
            printError(tr("\"%1\" has no turns").arg(path));
            return BadInput;
        }
        const int number = side == 0 ? *leftNumber : *rightNumber;
        if (number > session.turns.size()) {
            printError(tr("\"%1\" has %n turn(s), not %2", nullptr, int(session.turns.size()))
                           .arg(path)
                           .arg(number));
            return BadInput;
        }
        chosen.append(session.turns.at(number > 0 ? number - 1 : session.turns.size() - 1));
    }

    const RunComparison comparison(chosen.at(0), chosen.at(1));
    *m_out << comparison.summary() << '\n';
    *m_out << tr("A: %1").arg(comparison.left().source) << '\n';
    *m_out << tr("B: %1").arg(comparison.right().source) << '\n';
    for (const QString &line : stepLines(comparison))
        *m_out << line << '\n';
    m_out->flush();
    return comparison.isEqual() ? Equal : Different;
}

} // namespace Loopscope::Cli
