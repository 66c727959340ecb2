#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/builtin/calculatortool.h"
#include "agent/tools/builtin/currenttimetool.h"
#include "agent/tools/builtin/listdirectorytool.h"
#include "agent/tools/builtin/readfiletool.h"
#include "agent/tools/builtin/searchfilestool.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/schemavalidator.h"
#include "agent/tools/workbench.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QtConcurrent>

#include <numeric>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

ToolResult run(const Tool &tool, const QJsonObject &arguments)
{
    ToolContext context;
    return tool.invoke(arguments, context);
}

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// 2026-11-21 was a Saturday.
const QDateTime saturdayAfternoonUtc(QDate(2026, 11, 21), QTime(13, 3, 5), QTimeZone::utc());

CurrentTimeTool::Clock fixedClock(const QDateTime &time)
{
    return [time] {
        return time;
    };
}

} // namespace

/*
    The shared fixture, built once under a temporary folder:

    outer/secret.txt, outer/secretdir/inner.txt    what no tool may reach
    outer/ws2/x.txt                                a sibling whose name starts like "ws"
    outer/ws/                                      the workspace for resolve() and read_file
        a.txt, sub/b.txt, empty.txt, binary.bin, latin1.txt
        link-in -> sub, link-out-dir -> secretdir, link-out-file -> secret.txt,
        link-sibling -> ws2, dead -> (missing)
    outer/ws-link -> ws                            a workspace root that is itself a link
    outer/list/                                    the workspace for list_directory
    outer/search/                                  the workspace for search_files
*/
class ToolsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void calculatorEvaluatesExpressions_data();
    void calculatorEvaluatesExpressions();
    void calculatorExplainsWhatItCannotEvaluate_data();
    void calculatorExplainsWhatItCannotEvaluate();
    void calculatorGivesRightAnswersOnManyThreadsAtOnce();
    void calculatorErrorsQuoteABoundedExcerptOfAHugeExpression_data();
    void calculatorErrorsQuoteABoundedExcerptOfAHugeExpression();

    void currentTimeFormatsTheClockInTheRequestedZone_data();
    void currentTimeFormatsTheClockInTheRequestedZone();
    void currentTimeUsesTheDefaultZoneWithoutAnArgument_data();
    void currentTimeUsesTheDefaultZoneWithoutAnArgument();
    void currentTimeByDefaultTellsTheRealTimeInTheSystemZone();
    void currentTimeRefusesUnknownZones_data();
    void currentTimeRefusesUnknownZones();

    void workspaceResolvesPathsInside_data();
    void workspaceResolvesPathsInside();
    void workspaceRefusesPathsThatLeaveIt_data();
    void workspaceRefusesPathsThatLeaveIt();
    void workspaceWithoutAUsableFolderRefusesEverything_data();
    void workspaceWithoutAUsableFolderRefusesEverything();
    void workspaceWhoseRootIsALinkStillWorks();
    void workspaceContainsOnlyPathsInside();

    void readFileReturnsASmallFileWhole();
    void readFileCutsAtACharacterBoundaryAndSaysSo_data();
    void readFileCutsAtACharacterBoundaryAndSaysSo();
    void readFileCutsLargeFilesAtTheDefaultLimit();
    void readFileRefusesWhatItCannotShow_data();
    void readFileRefusesWhatItCannotShow();
    void readFileLooksForNulBytesOnlyAtTheStart();
    void readFileFlagsTextThatIsNotUtf8();
    void readFileSaysWhenAFileIsEmpty();

    void listDirectoryShowsSortedEntries_data();
    void listDirectoryShowsSortedEntries();
    void listDirectoryRefusesWhatIsNoFolderInside_data();
    void listDirectoryRefusesWhatIsNoFolderInside();
    void listDirectoryCapsLongListings_data();
    void listDirectoryCapsLongListings();

    void searchFilesFindsMatchingLines_data();
    void searchFilesFindsMatchingLines();
    void searchFilesSaysSoWhenNothingMatches();
    void searchFilesExplainsAnInvalidPattern_data();
    void searchFilesExplainsAnInvalidPattern();
    void searchFilesRefusesPathsOutside_data();
    void searchFilesRefusesPathsOutside();
    void searchFilesDoesNothingWhenCancelledBeforehand();
    void searchFilesStopsWalkingWhenCancelledMidway();
    void searchFilesCapsMatches_data();
    void searchFilesCapsMatches();
    void searchFilesShortensVeryLongLines();

    void everyBuiltinToolHasAStrictObjectSchema_data();
    void everyBuiltinToolHasAStrictObjectSchema();
    void validArgumentsPassTheSchema_data();
    void validArgumentsPassTheSchema();
    void invalidArgumentsAreExplainedWithPathAndRule_data();
    void invalidArgumentsAreExplainedWithPathAndRule();
    void anInvalidSchemaIsReportedInsteadOfCrashing_data();
    void anInvalidSchemaIsReportedInsteadOfCrashing();
    void workbenchFindsToolsByNameInTheOrderAdded();

    void builtinFactoryCreatesEveryListedTool();
    void builtinFactoryReturnsNullForUnknownNames();
    void builtinFileToolsAreConfinedToTheGivenWorkspace();

private:
    QString outer() const { return m_outer.path(); }
    QString ws() const { return m_outer.filePath(u"ws"_s); }
    QString listWs() const { return m_outer.filePath(u"list"_s); }
    QString searchWs() const { return m_outer.filePath(u"search"_s); }

    QTemporaryDir m_outer;
};

void ToolsTest::initTestCase()
{
    QVERIFY(m_outer.isValid());

    QVERIFY(writeFile(outer() + u"/secret.txt", "TODO secret\n"));
    QVERIFY(writeFile(outer() + u"/secretdir/inner.txt", "TODO inner secret\n"));
    QVERIFY(writeFile(outer() + u"/ws2/x.txt", "sibling\n"));

    QVERIFY(writeFile(ws() + u"/a.txt", "alpha\n"));
    QVERIFY(writeFile(ws() + u"/sub/b.txt", "beta\n"));
    QVERIFY(writeFile(ws() + u"/empty.txt", ""));
    QVERIFY(writeFile(ws() + u"/binary.bin", QByteArray("text\0more", 9)));
    QVERIFY(writeFile(ws() + u"/latin1.txt", "caf\xE9\n"));
    QVERIFY(QFile::link(ws() + u"/sub", ws() + u"/link-in"));
    QVERIFY(QFile::link(outer() + u"/secretdir", ws() + u"/link-out-dir"));
    QVERIFY(QFile::link(outer() + u"/secret.txt", ws() + u"/link-out-file"));
    QVERIFY(QFile::link(outer() + u"/ws2", ws() + u"/link-sibling"));
    QVERIFY(QFile::link(ws() + u"/missing-target", ws() + u"/dead"));
    QVERIFY(QFile::link(ws(), outer() + u"/ws-link"));
#ifdef Q_OS_UNIX
    QCOMPARE(::mkfifo(QFile::encodeName(ws() + u"/pipe").constData(), 0600), 0);
#endif

    QVERIFY(writeFile(listWs() + u"/.hidden", "x"));
    QVERIFY(writeFile(listWs() + u"/A.md", "hello"));
    QVERIFY(writeFile(listWs() + u"/b.txt", "abc"));
    QVERIFY(writeFile(listWs() + u"/Z.md", "zz"));
    QVERIFY(writeFile(listWs() + u"/c/inner.txt", "1234"));
    QVERIFY(QDir().mkpath(listWs() + u"/empty"));
    QVERIFY(QFile::link(listWs() + u"/nowhere", listWs() + u"/dead"));
    QVERIFY(QFile::link(listWs() + u"/b.txt", listWs() + u"/file-link"));
    QVERIFY(QFile::link(listWs() + u"/c", listWs() + u"/in"));
    QVERIFY(QFile::link(outer() + u"/secretdir", listWs() + u"/out"));
    QVERIFY(QFile::link(outer() + u"/secret.txt", listWs() + u"/out-file"));

    QVERIFY(writeFile(searchWs() + u"/src/main.cpp",
                      "int main()\n{\n    // TODO: parse args\n    return 0;\n}\n"));
    QVERIFY(writeFile(searchWs() + u"/src/util.h", "// TODO tidy\n#pragma once\n"));
    QVERIFY(writeFile(searchWs() + u"/README.md", "Todo list\n"));
    QVERIFY(writeFile(searchWs() + u"/.git/config", "TODO hidden folder\n"));
    QVERIFY(writeFile(searchWs() + u"/bin.dat", QByteArray("TODO\0binary\n", 12)));
    QVERIFY(writeFile(searchWs() + u"/big.txt", "TODO big\n" + QByteArray(1024 * 1024, 'x')));
    QVERIFY(writeFile(searchWs() + u"/crlf.txt", "first\r\nTODO windows\r\n"));
    QVERIFY(writeFile(searchWs() + u"/zzz/last.txt", "TODO last\n"));
    QVERIFY(QFile::link(searchWs() + u"/src/util.h", searchWs() + u"/inlink.txt"));
    QVERIFY(QFile::link(searchWs() + u"/src", searchWs() + u"/dirlink"));
    QVERIFY(QFile::link(outer() + u"/secretdir", searchWs() + u"/out-link"));
    QVERIFY(QFile::link(outer() + u"/secret.txt", searchWs() + u"/out-file"));
}

// ---- calculator ----

void ToolsTest::calculatorEvaluatesExpressions_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected");

    QTest::newRow("precedence and parentheses") << u"2*(3+4)"_s << u"2*(3+4) = 14"_s;
    QTest::newRow("surrounding blanks are trimmed") << u"  1 + 1 "_s << u"1 + 1 = 2"_s;
    QTest::newRow("power") << u"2^10"_s << u"2^10 = 1024"_s;
    QTest::newRow("functions") << u"sqrt(16) + max(1, 5)"_s << u"sqrt(16) + max(1, 5) = 9"_s;
    QTest::newRow("a fraction") << u"7/2"_s << u"7/2 = 3.5"_s;
    QTest::newRow("pi to 15 digits") << u"_pi"_s << u"_pi = 3.14159265358979"_s;
    QTest::newRow("pi without underscore") << u"2*pi"_s << u"2*pi = 6.28318530717959"_s;
    QTest::newRow("pi is precise enough that sin(pi) is tiny")
        << u"sin(pi) < 1e-15"_s << u"sin(pi) < 1e-15 = 1"_s;
    QTest::newRow("e") << u"ln(_e)"_s << u"ln(_e) = 1"_s;
    QTest::newRow("scientific notation") << u"1e3 + 2.5e-1"_s << u"1e3 + 2.5e-1 = 1000.25"_s;
    QTest::newRow("no binary rounding noise") << u"0.1+0.2"_s << u"0.1+0.2 = 0.3"_s;
    QTest::newRow("large integers stay exact") << u"2^53-1"_s << u"2^53-1 = 9007199254740991"_s;
    QTest::newRow("huge numbers in exponent form") << u"10^21"_s << u"10^21 = 1e+21"_s;
    QTest::newRow("negative zero prints as zero") << u"-0"_s << u"-0 = 0"_s;
    QTest::newRow("negative result") << u"3-5"_s << u"3-5 = -2"_s;
    QTest::newRow("conditional") << u"3 > 2 ? 10 : 20"_s << u"3 > 2 ? 10 : 20 = 10"_s;
}

void ToolsTest::calculatorEvaluatesExpressions()
{
    QFETCH(QString, expression);
    QFETCH(QString, expected);

    const ToolResult result = run(CalculatorTool(), {{u"expression"_s, expression}});
    QCOMPARE(result.content, expected);
    QVERIFY(!result.isError);
}

void ToolsTest::calculatorExplainsWhatItCannotEvaluate_data()
{
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QStringList>("expectedParts");

    QTest::newRow("empty expression") << json(R"j({"expression": ""})j") << QStringList{u"empty"_s};
    QTest::newRow("blank expression") << json(R"j({"expression": "   "})j") << QStringList{u"empty"_s};
    QTest::newRow("no expression at all") << QJsonObject() << QStringList{u"empty"_s};
    QTest::newRow("dangling operator")
        << json(R"j({"expression": "2+"})j")
        << QStringList{u"'2+'"_s, u"Unexpected end of expression at position 3"_s};
    QTest::newRow("unknown name") << json(R"j({"expression": "x+1"})j")
                                  << QStringList{u"'x+1'"_s, u"Unexpected token \"x\" found at position 0"_s};
    QTest::newRow("unbalanced parenthesis gets its position appended")
        << json(R"j({"expression": "(1"})j") << QStringList{u"Missing parenthesis (at position 3)"_s};
    QTest::newRow("too few function arguments")
        << json(R"j({"expression": "min()"})j") << QStringList{u"Too few parameters for function \"min\""_s};
    QTest::newRow("division by zero is not a number")
        << json(R"j({"expression": "1/0"})j")
        << QStringList{u"'1/0'"_s, u"infinity"_s, u"division by zero"_s};
    QTest::newRow("outside the domain")
        << json(R"j({"expression": "sqrt(-1)"})j") << QStringList{u"NaN"_s, u"sqrt(-1)"_s};
    QTest::newRow("two expressions at once")
        << json(R"j({"expression": "1, 2"})j") << QStringList{u"2 comma-separated expressions"_s};
    QTest::newRow("a string literal")
        << json(R"j({"expression": "\"abc\""})j") << QStringList{u"Strings must only be used"_s};
}

void ToolsTest::calculatorExplainsWhatItCannotEvaluate()
{
    QFETCH(QJsonObject, arguments);
    QFETCH(QStringList, expectedParts);

    const ToolResult result = run(CalculatorTool(), arguments);
    QVERIFY2(result.isError, qPrintable(result.content));
    for (const QString &part : expectedParts)
        QVERIFY2(result.content.contains(part), qPrintable(result.content));
}

void ToolsTest::calculatorErrorsQuoteABoundedExcerptOfAHugeExpression_data()
{
    QTest::addColumn<QString>("expression");
    const QString sum = QStringList(300'000, u"1"_s).join(u'+'); // 600 KB
    QTest::newRow("a syntax error at the end") << sum + u"+"_s;
    QTest::newRow("an unknown token at the start") << u"$"_s + sum;
    QTest::newRow("two expressions") << sum + u","_s + sum;
    QTest::newRow("no finite value") << sum + u"/0"_s;
    QTest::newRow("a huge token") << QString(2'000'000, u'x');
}

void ToolsTest::calculatorErrorsQuoteABoundedExcerptOfAHugeExpression()
{
    QFETCH(QString, expression);
    const ToolResult result = run(CalculatorTool(), {{u"expression"_s, expression}});
    QVERIFY(result.isError);
    QVERIFY2(result.content.size() < 1000, qPrintable(result.content.left(300)));
    QVERIFY(result.content.contains(u"characters)"_s));
}

void ToolsTest::calculatorGivesRightAnswersOnManyThreadsAtOnce()
{
    const CalculatorTool tool;
    QList<int> inputs(400);
    std::iota(inputs.begin(), inputs.end(), 0);

    const QList<QString> results = QtConcurrent::blockingMapped<QList<QString>>(inputs, [&tool](int n) {
        return run(tool, {{u"expression"_s, u"%1*%1+1"_s.arg(n)}}).content;
    });

    QCOMPARE(results.size(), inputs.size());
    for (int n : std::as_const(inputs))
        QCOMPARE(results.at(n), u"%1*%1+1 = %2"_s.arg(n).arg(n * n + 1));
}

// ---- current_time ----

void ToolsTest::currentTimeFormatsTheClockInTheRequestedZone_data()
{
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("expected");

    QTest::newRow("winter time in Berlin") << saturdayAfternoonUtc << u"Europe/Berlin"_s
                                           << u"2026-11-21T14:03:05+01:00 (Europe/Berlin, Saturday)"_s;
    QTest::newRow("summer time in Berlin")
        << QDateTime(QDate(2026, 7, 1), QTime(12, 0), QTimeZone::utc()) << u"Europe/Berlin"_s
        << u"2026-07-01T14:00:00+02:00 (Europe/Berlin, Wednesday)"_s;
    QTest::newRow("a negative offset") << saturdayAfternoonUtc << u"America/New_York"_s
                                       << u"2026-11-21T08:03:05-05:00 (America/New_York, Saturday)"_s;
    QTest::newRow("a half-hour offset") << saturdayAfternoonUtc << u"Asia/Kolkata"_s
                                        << u"2026-11-21T18:33:05+05:30 (Asia/Kolkata, Saturday)"_s;
    QTest::newRow("the date and weekday roll over")
        << QDateTime(QDate(2026, 11, 21), QTime(20, 0), QTimeZone::utc()) << u"Asia/Tokyo"_s
        << u"2026-11-22T05:00:00+09:00 (Asia/Tokyo, Sunday)"_s;
    QTest::newRow("UTC shows +00:00 rather than Z")
        << saturdayAfternoonUtc << u"UTC"_s << u"2026-11-21T13:03:05+00:00 (UTC, Saturday)"_s;
    QTest::newRow("Etc area names are accepted")
        << saturdayAfternoonUtc << u"Etc/GMT+1"_s << u"2026-11-21T12:03:05-01:00 (Etc/GMT+1, Saturday)"_s;
    QTest::newRow("surrounding blanks are ignored")
        << saturdayAfternoonUtc << u" Europe/Berlin "_s
        << u"2026-11-21T14:03:05+01:00 (Europe/Berlin, Saturday)"_s;
}

void ToolsTest::currentTimeFormatsTheClockInTheRequestedZone()
{
    QFETCH(QDateTime, now);
    QFETCH(QString, zone);
    QFETCH(QString, expected);

    const CurrentTimeTool tool(fixedClock(now));
    const ToolResult result = run(tool, {{u"timezone"_s, zone}});
    QCOMPARE(result.content, expected);
    QVERIFY(!result.isError);
}

void ToolsTest::currentTimeUsesTheDefaultZoneWithoutAnArgument_data()
{
    QTest::addColumn<QJsonObject>("arguments");

    QTest::newRow("no timezone argument") << QJsonObject();
    QTest::newRow("an empty timezone") << json(R"j({"timezone": ""})j");
}

void ToolsTest::currentTimeUsesTheDefaultZoneWithoutAnArgument()
{
    QFETCH(QJsonObject, arguments);

    const CurrentTimeTool tool(fixedClock(saturdayAfternoonUtc), QTimeZone(QByteArray("Asia/Tokyo")));
    const ToolResult result = run(tool, arguments);
    QCOMPARE(result.content, u"2026-11-21T22:03:05+09:00 (Asia/Tokyo, Saturday)"_s);
    QVERIFY(!result.isError);
}

void ToolsTest::currentTimeByDefaultTellsTheRealTimeInTheSystemZone()
{
    const QTimeZone system = QTimeZone::systemTimeZone();
    if (!system.isValid())
        QSKIP("This machine has no valid system time zone");

    const ToolResult result = run(CurrentTimeTool(), {});
    QVERIFY2(!result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(u" (%1, "_s.arg(QString::fromUtf8(system.id()))),
             qPrintable(result.content));

    const QDateTime told = QDateTime::fromString(result.content.section(u' ', 0, 0), Qt::ISODate);
    QVERIFY2(told.isValid(), qPrintable(result.content));
    QVERIFY(qAbs(told.secsTo(QDateTime::currentDateTimeUtc())) < 60);
}

void ToolsTest::currentTimeRefusesUnknownZones_data()
{
    QTest::addColumn<QString>("zone");

    QTest::newRow("a made-up area and city") << u"Mars/Olympus_Mons"_s;
    QTest::newRow("a POSIX-like abbreviation Qt would invent a zone for") << u"ABC"_s;
    QTest::newRow("a path climbing out of the zone database") << u"Europe/../../etc/passwd"_s;
    QTest::newRow("an absolute path") << u"/etc/localtime"_s;
    QTest::newRow("trailing garbage") << u"Europe/Berlin; rm -rf"_s;
    // Qt's tz backend would read these as files below its zoneinfo folder and accept them.
    QTest::newRow("a path that climbs out and back in") << u"../zoneinfo/Europe/Berlin"_s;
    QTest::newRow("a dot component") << u"Europe/./Berlin"_s;
    QTest::newRow("a double slash") << u"Europe//Berlin"_s;
}

void ToolsTest::currentTimeRefusesUnknownZones()
{
    QFETCH(QString, zone);

    const CurrentTimeTool tool(fixedClock(saturdayAfternoonUtc));
    const ToolResult result = run(tool, {{u"timezone"_s, zone}});
    QVERIFY2(result.isError, qPrintable(result.content));
    QVERIFY2(result.content.startsWith(u"Unknown time zone '%1'"_s.arg(zone)), qPrintable(result.content));
}

// ---- workspace ----

void ToolsTest::workspaceResolvesPathsInside_data()
{
    QTest::addColumn<QString>("relativePath");
    QTest::addColumn<QString>("expectedBelowRoot"); // "" for the root itself

    QTest::newRow("empty means the root") << u""_s << u""_s;
    QTest::newRow("dot means the root") << u"."_s << u""_s;
    QTest::newRow("dot slash means the root") << u"./"_s << u""_s;
    QTest::newRow("a file") << u"a.txt"_s << u"/a.txt"_s;
    QTest::newRow("a folder with a trailing slash") << u"sub/"_s << u"/sub"_s;
    QTest::newRow("a file in a folder") << u"sub/b.txt"_s << u"/sub/b.txt"_s;
    QTest::newRow("dot components") << u"./sub/./b.txt"_s << u"/sub/b.txt"_s;
    QTest::newRow("a link inside resolves to its target") << u"link-in/b.txt"_s << u"/sub/b.txt"_s;
    QTest::newRow("an empty file") << u"empty.txt"_s << u"/empty.txt"_s;
}

void ToolsTest::workspaceResolvesPathsInside()
{
    QFETCH(QString, relativePath);
    QFETCH(QString, expectedBelowRoot);

    const Workspace workspace(ws());
    const QString root = QFileInfo(ws()).canonicalFilePath();
    QCOMPARE(workspace.canonicalRoot(), root);

    const ResolvedPath resolved = workspace.resolve(relativePath);
    QCOMPARE(resolved.error, QString());
    QCOMPARE(resolved.path, root + expectedBelowRoot);
    QVERIFY(resolved.isValid());
}

void ToolsTest::workspaceRefusesPathsThatLeaveIt_data()
{
    QTest::addColumn<QString>("relativePath");
    QTest::addColumn<QString>("expectedError");

    const QString absolute = u"absolute path"_s;
    const QString dotDot = u"contains '..'"_s;
    const QString outside = u"leads outside the workspace"_s;
    const QString notFound = u"was not found in the workspace"_s;

    QTest::newRow("the parent") << u".."_s << dotDot;
    QTest::newRow("a file in the parent") << u"../secret.txt"_s << dotDot;
    QTest::newRow("climbing out from a subfolder") << u"a/../../x"_s << dotDot;
    QTest::newRow("dot-dot that would land back inside") << u"sub/../a.txt"_s << dotDot;
    QTest::newRow("dot-dot back into the workspace by name") << u"../ws/a.txt"_s << dotDot;
    QTest::newRow("backslash dot-dot") << u"sub\\..\\..\\secret.txt"_s << dotDot;
    QTest::newRow("a trailing dot-dot") << u"sub/.."_s << dotDot;
    QTest::newRow("an absolute path outside") << u"/etc/passwd"_s << absolute;
    QTest::newRow("an absolute path into the workspace itself") << QString(ws() + u"/a.txt") << absolute;
    QTest::newRow("a Windows drive path") << u"C:\\Windows\\win.ini"_s << absolute;
    QTest::newRow("a Windows drive-relative path") << u"c:secret.txt"_s << absolute;
    QTest::newRow("a UNC path") << u"\\\\server\\share"_s << absolute;
    QTest::newRow("a leading backslash") << u"\\etc\\passwd"_s << absolute;
    QTest::newRow("a link to a folder outside") << u"link-out-dir"_s << outside;
    QTest::newRow("a file through a link to a folder outside") << u"link-out-dir/inner.txt"_s << outside;
    QTest::newRow("a link to a file outside") << u"link-out-file"_s << outside;
    QTest::newRow("a link to a sibling folder sharing the name prefix") << u"link-sibling/x.txt"_s << outside;
    QTest::newRow("a file that does not exist") << u"missing.txt"_s << notFound;
    QTest::newRow("a folder that does not exist") << u"nope/a.txt"_s << notFound;
    QTest::newRow("a broken link") << u"dead"_s << notFound;
    QTest::newRow("a NUL character") << u"a.txt\u0000.png"_s << u"NUL character"_s;
}

void ToolsTest::workspaceRefusesPathsThatLeaveIt()
{
    QFETCH(QString, relativePath);
    QFETCH(QString, expectedError);

    const ResolvedPath resolved = Workspace(ws()).resolve(relativePath);
    QVERIFY2(!resolved.isValid(), qPrintable(resolved.path));
    QCOMPARE(resolved.path, QString());
    QVERIFY2(resolved.error.contains(expectedError), qPrintable(resolved.error));
}

void ToolsTest::workspaceWithoutAUsableFolderRefusesEverything_data()
{
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("no root configured") << QString() << u"No workspace folder is configured"_s;
    QTest::newRow("a root that does not exist")
        << QString(outer() + u"/no-such-folder") << u"does not exist"_s;
    QTest::newRow("a root that is a file") << QString(outer() + u"/secret.txt") << u"is not a folder"_s;
}

void ToolsTest::workspaceWithoutAUsableFolderRefusesEverything()
{
    QFETCH(QString, root);
    QFETCH(QString, expectedError);

    const Workspace workspace(root);
    QCOMPARE(workspace.canonicalRoot(), QString());
    for (const QString &path : {u""_s, u"."_s, u"a.txt"_s}) {
        const ResolvedPath resolved = workspace.resolve(path);
        QVERIFY(!resolved.isValid());
        QVERIFY2(resolved.error.contains(expectedError), qPrintable(resolved.error));
    }
    QVERIFY(!workspace.contains(outer() + u"/secret.txt"));
}

void ToolsTest::workspaceWhoseRootIsALinkStillWorks()
{
    const Workspace workspace(outer() + u"/ws-link");
    const QString realRoot = QFileInfo(ws()).canonicalFilePath();
    QCOMPARE(workspace.canonicalRoot(), realRoot);
    QCOMPARE(workspace.resolve(u"sub/b.txt"_s).path, realRoot + u"/sub/b.txt");
    QVERIFY(!workspace.resolve(u"link-out-file"_s).isValid());
    QVERIFY(workspace.contains(outer() + u"/ws-link/a.txt"));
}

void ToolsTest::workspaceContainsOnlyPathsInside()
{
    const Workspace workspace(ws());
    QVERIFY(workspace.contains(ws()));
    QVERIFY(workspace.contains(ws() + u"/a.txt"));
    QVERIFY(workspace.contains(ws() + u"/link-in/b.txt"));
    QVERIFY(!workspace.contains(ws() + u"/link-out-file"));
    QVERIFY(!workspace.contains(ws() + u"/link-out-dir/inner.txt"));
    QVERIFY(!workspace.contains(ws() + u"/link-sibling"));
    QVERIFY(!workspace.contains(outer() + u"/secret.txt"));
    QVERIFY(!workspace.contains(ws() + u"/missing.txt"));

    QVERIFY(Workspace::isWithin(u"/work/space"_s, u"/work/space"_s));
    QVERIFY(Workspace::isWithin(u"/work/space"_s, u"/work/space/a"_s));
    QVERIFY(!Workspace::isWithin(u"/work/space"_s, u"/work/space2/a"_s));
    QVERIFY(!Workspace::isWithin(u"/work/space"_s, u"/work"_s));
    QVERIFY(Workspace::isWithin(u"/"_s, u"/etc"_s));
    QVERIFY(!Workspace::isWithin(QString(), u"/etc"_s));
    QVERIFY(!Workspace::isWithin(u"/work/space"_s, QString()));

    QCOMPARE(Workspace::relativePath(u"/work/space"_s, u"/work/space"_s), u"."_s);
    QCOMPARE(Workspace::relativePath(u"/work/space"_s, u"/work/space/src/a.cpp"_s), u"src/a.cpp"_s);
}

// ---- read_file ----

void ToolsTest::readFileReturnsASmallFileWhole()
{
    const ToolResult result = run(ReadFileTool(Workspace(ws())), {{u"path"_s, u"sub/b.txt"_s}});
    QCOMPARE(result.content, u"beta\n"_s);
    QVERIFY(!result.isError);
}

void ToolsTest::readFileCutsAtACharacterBoundaryAndSaysSo_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("maxBytes");
    QTest::addColumn<QString>("expected");

    const QByteArray eAcute("\xC3\xA9");       // é, 2 bytes
    const QByteArray euro("\xE2\x82\xAC");     // €, 3 bytes
    const QByteArray grin("\xF0\x9F\x98\x80"); // 😀, 4 bytes

    QTest::newRow("ASCII is cut at the limit")
        << QByteArray(100, 'x') << qint64(10)
        << QString(QString(10, u'x') + u"\n[truncated: showed 10 of 100 bytes]");
    QTest::newRow("the cut backs off a two-byte character")
        << QByteArray("ab" + eAcute.repeated(10)) << qint64(5)
        << QString(QString::fromUtf8("ab" + eAcute) + u"\n[truncated: showed 4 of 22 bytes]");
    QTest::newRow("the cut backs off a four-byte character")
        << QByteArray("x" + grin.repeated(3)) << qint64(3) << u"x\n[truncated: showed 1 of 13 bytes]"_s;
    QTest::newRow("the cut backs off the last byte of a four-byte character")
        << QByteArray("x" + grin.repeated(3)) << qint64(8)
        << QString(QString::fromUtf8("x" + grin) + u"\n[truncated: showed 5 of 13 bytes]");
    QTest::newRow("a cut on a boundary keeps whole characters")
        << euro.repeated(3) << qint64(6)
        << QString(QString::fromUtf8(euro.repeated(2)) + u"\n[truncated: showed 6 of 9 bytes]");
    QTest::newRow("a file of exactly the limit is whole")
        << QByteArray("0123456789") << qint64(10) << u"0123456789"_s;
    QTest::newRow("a file one byte over the limit is cut")
        << QByteArray("0123456789A") << qint64(10) << u"0123456789\n[truncated: showed 10 of 11 bytes]"_s;
}

void ToolsTest::readFileCutsAtACharacterBoundaryAndSaysSo()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, maxBytes);
    QFETCH(QString, expected);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(u"file.txt"_s), content));

    const ToolResult result
        = run(ReadFileTool(Workspace(dir.path()), maxBytes), {{u"path"_s, u"file.txt"_s}});
    QCOMPARE(result.content, expected);
    QVERIFY(!result.isError);
    QVERIFY(!result.content.contains(QChar::ReplacementCharacter));
}

void ToolsTest::readFileCutsLargeFilesAtTheDefaultLimit()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(u"big.log"_s), QByteArray(1024 * 1024, 'a')));

    const ToolResult result = run(ReadFileTool(Workspace(dir.path())), {{u"path"_s, u"big.log"_s}});
    QVERIFY(!result.isError);
    const QString note = u"\n[truncated: showed 65536 of 1048576 bytes]"_s;
    QVERIFY2(result.content.endsWith(note), qPrintable(result.content.right(100)));
    QCOMPARE(result.content.size(), 65536 + note.size());
}

void ToolsTest::readFileRefusesWhatItCannotShow_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("a binary file") << u"binary.bin"_s << u"looks like a binary file"_s;
    QTest::newRow("a folder") << u"sub"_s << u"is a folder"_s;
    QTest::newRow("the root") << u"."_s << u"is a folder"_s;
    QTest::newRow("a missing file") << u"missing.txt"_s << u"was not found"_s;
    QTest::newRow("a file outside by dot-dot") << u"../secret.txt"_s << u"contains '..'"_s;
    QTest::newRow("a file outside through a link") << u"link-out-file"_s << u"outside the workspace"_s;
    QTest::newRow("an absolute path") << QString(outer() + u"/secret.txt") << u"absolute path"_s;
#ifdef Q_OS_UNIX
    // Reading a pipe would block forever: this row hangs rather than fails if the check breaks.
    QTest::newRow("a named pipe") << u"pipe"_s << u"not a regular file"_s;
#endif
}

void ToolsTest::readFileRefusesWhatItCannotShow()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedError);

    const ToolResult result = run(ReadFileTool(Workspace(ws())), {{u"path"_s, path}});
    QVERIFY2(result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(expectedError), qPrintable(result.content));
    QVERIFY(!result.content.contains(u"TODO secret"_s));
}

void ToolsTest::readFileLooksForNulBytesOnlyAtTheStart()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray late = QByteArray(ReadFileTool::BinaryProbeBytes, 'a') + '\0';
    const QByteArray early = QByteArray(ReadFileTool::BinaryProbeBytes - 1, 'a') + '\0';
    QVERIFY(writeFile(dir.filePath(u"late.txt"_s), late));
    QVERIFY(writeFile(dir.filePath(u"early.txt"_s), early));

    const ReadFileTool tool{Workspace(dir.path())};
    QVERIFY(!run(tool, {{u"path"_s, u"late.txt"_s}}).isError);
    QVERIFY(run(tool, {{u"path"_s, u"early.txt"_s}}).isError);
}

void ToolsTest::readFileFlagsTextThatIsNotUtf8()
{
    const ToolResult result = run(ReadFileTool(Workspace(ws())), {{u"path"_s, u"latin1.txt"_s}});
    QVERIFY(!result.isError);
    QVERIFY2(result.content.startsWith(u"caf"_s), qPrintable(result.content));
    QVERIFY2(result.content.contains(u"[note: the file is not valid UTF-8"_s), qPrintable(result.content));
}

void ToolsTest::readFileSaysWhenAFileIsEmpty()
{
    const ToolResult result = run(ReadFileTool(Workspace(ws())), {{u"path"_s, u"empty.txt"_s}});
    QCOMPARE(result.content, u"[the file 'empty.txt' is empty]"_s);
    QVERIFY(!result.isError);
}

// ---- list_directory ----

void ToolsTest::listDirectoryShowsSortedEntries_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");

    const QString rootListing = QStringList{
        u".hidden (1 byte)"_s,
        u"A.md (5 bytes)"_s,
        u"b.txt (3 bytes)"_s,
        u"c/"_s,
        u"dead (broken symbolic link)"_s,
        u"empty/"_s,
        u"file-link (3 bytes, symbolic link to b.txt)"_s,
        u"in/ (symbolic link to c/)"_s,
        u"out (symbolic link leading outside the workspace, not followed)"_s,
        u"out-file (symbolic link leading outside the workspace, not followed)"_s,
        u"Z.md (2 bytes)"_s,
    }.join(u'\n');

    QTest::newRow("the root by dot") << u"."_s << rootListing;
    QTest::newRow("the root by an empty path") << u""_s << rootListing;
    QTest::newRow("a subfolder") << u"c"_s << u"inner.txt (4 bytes)"_s;
    QTest::newRow("a subfolder through a link inside") << u"in"_s << u"inner.txt (4 bytes)"_s;
    QTest::newRow("an empty folder") << u"empty"_s << u"The folder 'empty' is empty."_s;
}

void ToolsTest::listDirectoryShowsSortedEntries()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);

    const ToolResult result = run(ListDirectoryTool(Workspace(listWs())), {{u"path"_s, path}});
    QCOMPARE(result.content, expected);
    QVERIFY(!result.isError);
}

void ToolsTest::listDirectoryRefusesWhatIsNoFolderInside_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("a file") << u"b.txt"_s << u"is a file, not a folder"_s;
    QTest::newRow("a link to a folder outside") << u"out"_s << u"outside the workspace"_s;
    QTest::newRow("the parent") << u".."_s << u"contains '..'"_s;
    QTest::newRow("a missing folder") << u"nowhere"_s << u"was not found"_s;
    QTest::newRow("a broken link") << u"dead"_s << u"was not found"_s;
    QTest::newRow("an absolute path") << u"/"_s << u"absolute path"_s;
}

void ToolsTest::listDirectoryRefusesWhatIsNoFolderInside()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedError);

    const ToolResult result = run(ListDirectoryTool(Workspace(listWs())), {{u"path"_s, path}});
    QVERIFY2(result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(expectedError), qPrintable(result.content));
    QVERIFY(!result.content.contains(u"inner.txt"_s));
}

void ToolsTest::listDirectoryCapsLongListings_data()
{
    QTest::addColumn<int>("maxEntries");
    QTest::addColumn<QString>("expected");

    QTest::newRow("over the cap")
        << 3 << u"f0 (0 bytes)\nf1 (0 bytes)\nf2 (0 bytes)\n[truncated: showed 3 of 10 entries]"_s;
    QTest::newRow("one under the cap") << 9 << u"f8 (0 bytes)\n[truncated: showed 9 of 10 entries]"_s;
    QTest::newRow("exactly at the cap") << 10 << u"f9 (0 bytes)"_s;
}

void ToolsTest::listDirectoryCapsLongListings()
{
    QFETCH(int, maxEntries);
    QFETCH(QString, expected);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (int i = 0; i < 10; ++i)
        QVERIFY(writeFile(dir.filePath(u"f%1"_s.arg(i)), {}));

    const ToolResult result
        = run(ListDirectoryTool(Workspace(dir.path()), maxEntries), {{u"path"_s, u"."_s}});
    QVERIFY(!result.isError);
    QVERIFY2(result.content.endsWith(expected), qPrintable(result.content));
    QCOMPARE(result.content.count(u'\n') + 1, maxEntries + (maxEntries < 10 ? 1 : 0));
}

// ---- search_files ----

void ToolsTest::searchFilesFindsMatchingLines_data()
{
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QString>("expected");

    // Not found: .git (hidden folder), bin.dat (binary), big.txt (over 1 MiB), README.md
    // (other case), anything behind out-link/out-file, and src again through dirlink.
    const QString everyTodo = QStringList{
        u"crlf.txt:2: TODO windows"_s,
        u"inlink.txt:1: // TODO tidy"_s,
        u"src/main.cpp:3:     // TODO: parse args"_s,
        u"src/util.h:1: // TODO tidy"_s,
        u"zzz/last.txt:1: TODO last"_s,
    }.join(u'\n');

    QTest::newRow("the whole workspace by default") << json(R"j({"pattern": "TODO"})j") << everyTodo;
    QTest::newRow("the whole workspace by dot") << json(R"j({"pattern": "TODO", "path": "."})j") << everyTodo;
    QTest::newRow("(?i) ignores case")
        << json(R"j({"pattern": "(?i)todo list"})j") << u"README.md:1: Todo list"_s;
    QTest::newRow("only inside the given folder")
        << json(R"j({"pattern": "TODO", "path": "src"})j")
        << u"src/main.cpp:3:     // TODO: parse args\nsrc/util.h:1: // TODO tidy"_s;
    QTest::newRow("a single file") << json(R"j({"pattern": "return", "path": "src/main.cpp"})j")
                                   << u"src/main.cpp:4:     return 0;"_s;
    QTest::newRow("anchors and alternation")
        << json(R"j({"pattern": "^#pragma|^int"})j")
        << u"inlink.txt:2: #pragma once\nsrc/main.cpp:1: int main()\nsrc/util.h:2: #pragma once"_s;
    QTest::newRow("a CRLF line matches without its CR")
        << json(R"j({"pattern": "windows$"})j") << u"crlf.txt:2: TODO windows"_s;
}

void ToolsTest::searchFilesFindsMatchingLines()
{
    QFETCH(QJsonObject, arguments);
    QFETCH(QString, expected);

    const ToolResult result = run(SearchFilesTool(Workspace(searchWs())), arguments);
    QCOMPARE(result.content, expected);
    QVERIFY(!result.isError);
}

void ToolsTest::searchFilesSaysSoWhenNothingMatches()
{
    const ToolResult result = run(SearchFilesTool(Workspace(searchWs())), {{u"pattern"_s, u"NoSuchText"_s}});
    QVERIFY(!result.isError);
    QVERIFY2(result.content.startsWith(u"No matches for /NoSuchText/ in '.'"_s), qPrintable(result.content));
}

void ToolsTest::searchFilesExplainsAnInvalidPattern_data()
{
    QTest::addColumn<QString>("pattern");

    QTest::newRow("an unclosed group") << u"(unclosed"_s;
    QTest::newRow("an unclosed class") << u"[a-"_s;
    QTest::newRow("a quantifier with nothing to repeat") << u"*x"_s;
}

void ToolsTest::searchFilesExplainsAnInvalidPattern()
{
    QFETCH(QString, pattern);

    const QString qtError = QRegularExpression(pattern).errorString();
    QVERIFY(!qtError.isEmpty());
    const ToolResult result = run(SearchFilesTool(Workspace(searchWs())), {{u"pattern"_s, pattern}});
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(u"Invalid regular expression '%1': %2"_s.arg(pattern, qtError)),
             qPrintable(result.content));
}

void ToolsTest::searchFilesRefusesPathsOutside_data()
{
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("the parent") << json(R"j({"pattern": "TODO", "path": ".."})j") << u"contains '..'"_s;
    QTest::newRow("a link to a folder outside")
        << json(R"j({"pattern": "TODO", "path": "out-link"})j") << u"outside the workspace"_s;
    QTest::newRow("a link to a file outside")
        << json(R"j({"pattern": "TODO", "path": "out-file"})j") << u"outside the workspace"_s;
    QTest::newRow("an absolute path")
        << json(R"j({"pattern": "TODO", "path": "/etc"})j") << u"absolute path"_s;
    QTest::newRow("a missing folder")
        << json(R"j({"pattern": "TODO", "path": "nowhere"})j") << u"was not found"_s;
    QTest::newRow("an empty pattern") << json(R"j({"pattern": ""})j") << u"pattern is empty"_s;
}

void ToolsTest::searchFilesRefusesPathsOutside()
{
    QFETCH(QJsonObject, arguments);
    QFETCH(QString, expectedError);

    const ToolResult result = run(SearchFilesTool(Workspace(searchWs())), arguments);
    QVERIFY2(result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(expectedError), qPrintable(result.content));
    QVERIFY(!result.content.contains(u"secret"_s));
}

void ToolsTest::searchFilesDoesNothingWhenCancelledBeforehand()
{
    QStringList progress;
    ToolContext context([&progress](const QString &message) { progress.append(message); });
    context.cancel();

    const ToolResult result
        = SearchFilesTool(Workspace(searchWs())).invoke({{u"pattern"_s, u"TODO"_s}}, context);
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"The search was cancelled after 0 files and 0 matches."_s);
    QCOMPARE(progress, QStringList());
}

void ToolsTest::searchFilesStopsWalkingWhenCancelledMidway()
{
    // Cancel as the walk enters its second folder (src): zzz, which comes after, must not be entered.
    QStringList progress;
    ToolContext *self = nullptr;
    ToolContext context([&](const QString &message) {
        progress.append(message);
        if (progress.size() == 2)
            self->cancel();
    });
    self = &context;

    const ToolResult result
        = SearchFilesTool(Workspace(searchWs())).invoke({{u"pattern"_s, u"TODO"_s}}, context);
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(u"The search was cancelled"_s), qPrintable(result.content));
    QCOMPARE(progress, (QStringList{u"Searching ."_s, u"Searching src"_s}));

    // Uncancelled, the same search does go on into zzz.
    progress.clear();
    ToolContext uncancelled([&](const QString &message) { progress.append(message); });
    QVERIFY(!SearchFilesTool(Workspace(searchWs())).invoke({{u"pattern"_s, u"TODO"_s}}, uncancelled).isError);
    QCOMPARE(progress, (QStringList{u"Searching ."_s, u"Searching src"_s, u"Searching zzz"_s}));
}

void ToolsTest::searchFilesCapsMatches_data()
{
    QTest::addColumn<int>("maxMatches");
    QTest::addColumn<bool>("truncated");

    QTest::newRow("well over the cap") << 10 << true;
    QTest::newRow("one over the cap") << 49 << true;
    QTest::newRow("exactly at the cap") << 50 << false;
}

void ToolsTest::searchFilesCapsMatches()
{
    QFETCH(int, maxMatches);
    QFETCH(bool, truncated);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray lines;
    for (int i = 1; i <= 50; ++i)
        lines += "hit " + QByteArray::number(i) + "\nmiss\n";
    QVERIFY(writeFile(dir.filePath(u"many.txt"_s), lines));

    const ToolResult result
        = run(SearchFilesTool(Workspace(dir.path()), maxMatches), {{u"pattern"_s, u"^hit"_s}});
    QVERIFY(!result.isError);
    const QStringList outputLines = result.content.split(u'\n');
    QCOMPARE(outputLines.first(), u"many.txt:1: hit 1"_s);
    QCOMPARE(outputLines.at(maxMatches - 1),
             u"many.txt:%1: hit %2"_s.arg(2 * maxMatches - 1).arg(maxMatches));
    if (truncated) {
        QCOMPARE(outputLines.size(), maxMatches + 1);
        QVERIFY2(outputLines.last().startsWith(u"[truncated: showed the first %1 matches"_s.arg(maxMatches)),
                 qPrintable(outputLines.last()));
    } else {
        QCOMPARE(outputLines.size(), maxMatches);
    }
}

void ToolsTest::searchFilesShortensVeryLongLines()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(u"long.min.js"_s), "needle" + QByteArray(1000, 'x') + "\nneedle short\n"));

    const ToolResult result = run(SearchFilesTool(Workspace(dir.path())), {{u"pattern"_s, u"needle"_s}});
    QVERIFY(!result.isError);
    const QString longLine = u"needle"_s + QString(SearchFilesTool::MaxLineChars - 6, u'x') + QChar(0x2026);
    QCOMPARE(result.content, QString(u"long.min.js:1: "_s + longLine + u"\nlong.min.js:2: needle short"));
}

// ---- schemas and the workbench ----

void ToolsTest::everyBuiltinToolHasAStrictObjectSchema_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : builtinToolNames())
        QTest::newRow(qPrintable(name)) << name;
}

void ToolsTest::everyBuiltinToolHasAStrictObjectSchema()
{
    QFETCH(QString, name);

    const std::shared_ptr<const Tool> tool = createBuiltinTool(name, Workspace(ws()));
    QVERIFY(tool);
    const ToolSchema schema = tool->schema();
    QCOMPARE(schema.name, name);
    QVERIFY(schema.description.size() > 40);

    const QJsonObject parameters = schema.parameters;
    QCOMPARE(parameters.value(u"type"_s).toString(), u"object"_s);
    QCOMPARE(parameters.value(u"additionalProperties"_s), QJsonValue(false));
    const QJsonObject properties = parameters.value(u"properties"_s).toObject();
    QVERIFY(!properties.isEmpty());
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        QVERIFY2(!it->toObject().value(u"type"_s).toString().isEmpty(), qPrintable(it.key()));
        QVERIFY2(it->toObject().value(u"description"_s).toString().size() > 10, qPrintable(it.key()));
    }
    for (const QJsonValue &required : parameters.value(u"required"_s).toArray())
        QVERIFY2(properties.contains(required.toString()), qPrintable(required.toString()));

    const SchemaValidator validator(parameters);
    QCOMPARE(validator.schemaError(), QString());
}

void ToolsTest::validArgumentsPassTheSchema_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("arguments");

    QTest::newRow("calculator") << u"calculator"_s << json(R"j({"expression": "1+1"})j");
    QTest::newRow("current_time without a zone") << u"current_time"_s << QJsonObject();
    QTest::newRow("current_time with a zone") << u"current_time"_s << json(R"j({"timezone": "UTC"})j");
    QTest::newRow("read_file") << u"read_file"_s << json(R"j({"path": "a.txt"})j");
    QTest::newRow("list_directory") << u"list_directory"_s << json(R"j({"path": "."})j");
    QTest::newRow("search_files with a pattern only") << u"search_files"_s << json(R"j({"pattern": "x"})j");
    QTest::newRow("search_files with a path")
        << u"search_files"_s << json(R"j({"pattern": "x", "path": "src"})j");
    QTest::newRow("write_file") << u"write_file"_s << json(R"j({"path": "a.txt", "content": ""})j");
    QTest::newRow("edit_file") << u"edit_file"_s
                               << json(R"j({"path": "a.txt", "old_text": "a", "new_text": "b"})j");
    QTest::newRow("edit_file replacing all")
        << u"edit_file"_s
        << json(R"j({"path": "a.txt", "old_text": "a", "new_text": "b", "replace_all": true})j");
    QTest::newRow("run_command") << u"run_command"_s << json(R"j({"command": "ls"})j");
    QTest::newRow("run_command with a timeout")
        << u"run_command"_s << json(R"j({"command": "ls", "timeout_s": 5})j");
    QTest::newRow("fetch_url") << u"fetch_url"_s
                               << json(R"j({"url": "https://example.com/", "max_kb": 10})j");
}

void ToolsTest::validArgumentsPassTheSchema()
{
    QFETCH(QString, tool);
    QFETCH(QJsonObject, arguments);

    Workbench workbench;
    for (const QString &name : builtinToolNames())
        workbench.add(createBuiltinTool(name, Workspace(ws())));
    QCOMPARE(workbench.validateArguments(tool, arguments), QString());
}

void ToolsTest::invalidArgumentsAreExplainedWithPathAndRule_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QStringList>("expectedParts");

    QTest::newRow("a number where a string belongs")
        << u"calculator"_s << json(R"j({"expression": 42})j")
        << QStringList{u"at /expression: "_s, u"'type' constraint"_s, u"expected string, got integer"_s};
    QTest::newRow("a missing required argument")
        << u"calculator"_s << QJsonObject() << QStringList{u"at /: Missing required property 'expression'"_s};
    QTest::newRow("an argument the schema does not know")
        << u"calculator"_s << json(R"j({"expression": "1", "precision": 3})j")
        << QStringList{u"at /: "_s, u"additionalProperties"_s, u"'precision'"_s};
    QTest::newRow("a wrong type for an optional argument")
        << u"current_time"_s << json(R"j({"timezone": 1})j")
        << QStringList{u"at /timezone: "_s, u"expected string, got integer"_s};
    QTest::newRow("an array where a path belongs")
        << u"search_files"_s << json(R"j({"pattern": "x", "path": []})j")
        << QStringList{u"at /path: "_s, u"expected string, got array"_s};
    QTest::newRow("a timeout beyond the bound")
        << u"run_command"_s << json(R"j({"command": "ls", "timeout_s": 100000})j")
        << QStringList{u"at /timeout_s: "_s};
    QTest::newRow("edit_file without new_text")
        << u"edit_file"_s << json(R"j({"path": "a.txt", "old_text": "a"})j")
        << QStringList{u"Missing required property 'new_text'"_s};
    QTest::newRow("a misspelt argument name")
        << u"read_file"_s << json(R"j({"file": "a.txt"})j")
        << QStringList{u"Missing required property 'path'"_s, u"'file'"_s};
}

void ToolsTest::invalidArgumentsAreExplainedWithPathAndRule()
{
    QFETCH(QString, tool);
    QFETCH(QJsonObject, arguments);
    QFETCH(QStringList, expectedParts);

    Workbench workbench;
    workbench.add(createBuiltinTool(tool, Workspace(ws())));
    const QString message = workbench.validateArguments(tool, arguments);
    QVERIFY(!message.isEmpty());
    for (const QString &part : expectedParts)
        QVERIFY2(message.contains(part), qPrintable(message));
}

void ToolsTest::anInvalidSchemaIsReportedInsteadOfCrashing_data()
{
    QTest::addColumn<QJsonObject>("schema");

    QTest::newRow("a number as type") << json(R"j({"type": 42})j");
    QTest::newRow("an unknown type name") << json(R"j({"type": "text"})j");
    QTest::newRow("required that is no list") << json(R"j({"type": "object", "required": "x"})j");
    QTest::newRow("properties that are a list") << json(R"j({"type": "object", "properties": []})j");
    QTest::newRow("a negative minLength")
        << json(R"j({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}})j");
}

void ToolsTest::anInvalidSchemaIsReportedInsteadOfCrashing()
{
    QFETCH(QJsonObject, schema);

    const SchemaValidator validator(schema);
    QVERIFY(!validator.schemaError().isEmpty());
    const QString message = validator.validate(QJsonObject{{u"a"_s, u"b"_s}});
    QVERIFY2(message.contains(u"schema is invalid: "_s + validator.schemaError()), qPrintable(message));

    Workbench workbench;
    workbench.add(std::make_shared<FunctionTool>(
        ToolSchema{u"broken"_s, u"A tool with a bad schema."_s, schema},
        [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"ran"_s); }));
    QVERIFY(workbench.find(u"broken"_s));
    QVERIFY(workbench.validateArguments(u"broken"_s, QJsonObject()).contains(u"schema is invalid"_s));
}

void ToolsTest::workbenchFindsToolsByNameInTheOrderAdded()
{
    Workbench workbench;
    QVERIFY(workbench.isEmpty());

    const auto calculator = std::make_shared<CalculatorTool>();
    const auto reader = std::make_shared<ReadFileTool>(Workspace(ws()));
    const auto clock = std::make_shared<CurrentTimeTool>(fixedClock(saturdayAfternoonUtc));
    workbench.add(calculator);
    workbench.add(reader);
    workbench.add(clock);

    QVERIFY(!workbench.isEmpty());
    QCOMPARE(workbench.find(u"calculator"_s), calculator);
    QCOMPARE(workbench.find(u"read_file"_s), reader);
    QCOMPARE(workbench.find(u"no_such_tool"_s), nullptr);
    QCOMPARE(workbench.names(), (QStringList{u"calculator"_s, u"read_file"_s, u"current_time"_s}));
    QCOMPARE(workbench.schemas(),
             (QList<ToolSchema>{calculator->schema(), reader->schema(), clock->schema()}));

    // A tool of the same name replaces the old one in place.
    const auto smallReader = std::make_shared<ReadFileTool>(Workspace(ws()), 16);
    workbench.add(smallReader);
    QCOMPARE(workbench.find(u"read_file"_s), smallReader);
    QCOMPARE(workbench.names(), (QStringList{u"calculator"_s, u"read_file"_s, u"current_time"_s}));
    QCOMPARE(workbench.schemas().at(1), smallReader->schema());

    QVERIFY(workbench.remove(u"calculator"_s));
    QVERIFY(!workbench.remove(u"calculator"_s));
    QCOMPARE(workbench.find(u"calculator"_s), nullptr);
    QCOMPARE(workbench.names(), (QStringList{u"read_file"_s, u"current_time"_s}));

    workbench.clear();
    QVERIFY(workbench.isEmpty());
    QCOMPARE(workbench.schemas(), QList<ToolSchema>());
}

// ---- the built-in factory ----

void ToolsTest::builtinFactoryCreatesEveryListedTool()
{
    const QStringList names = builtinToolNames();
    QCOMPARE(names, (QStringList{u"calculator"_s, u"current_time"_s, u"read_file"_s, u"list_directory"_s,
                                 u"search_files"_s, u"write_file"_s, u"edit_file"_s, u"run_command"_s,
                                 u"fetch_url"_s}));
    for (const QString &name : names) {
        const std::shared_ptr<const Tool> tool = createBuiltinTool(name, Workspace(ws()));
        QVERIFY2(tool, qPrintable(name));
        QCOMPARE(tool->name(), name);
    }
}

void ToolsTest::builtinFactoryReturnsNullForUnknownNames()
{
    QCOMPARE(createBuiltinTool(u"shell"_s, Workspace(ws())), nullptr);
    QCOMPARE(createBuiltinTool(QString(), Workspace(ws())), nullptr);
    QCOMPARE(createBuiltinTool(u"Calculator"_s, Workspace(ws())), nullptr);
}

void ToolsTest::builtinFileToolsAreConfinedToTheGivenWorkspace()
{
    const Workspace workspace(ws());
    const auto reader = createBuiltinTool(u"read_file"_s, workspace);
    QCOMPARE(run(*reader, {{u"path"_s, u"a.txt"_s}}).content, u"alpha\n"_s);
    QVERIFY(run(*reader, {{u"path"_s, u"../secret.txt"_s}}).isError);

    const auto lister = createBuiltinTool(u"list_directory"_s, workspace);
    QCOMPARE(run(*lister, {{u"path"_s, u"sub"_s}}).content, u"b.txt (5 bytes)"_s);

    const auto searcher = createBuiltinTool(u"search_files"_s, workspace);
    QCOMPARE(run(*searcher, {{u"pattern"_s, u"beta"_s}}).content, u"sub/b.txt:1: beta"_s);

    const auto unconfined = createBuiltinTool(u"read_file"_s, Workspace());
    const ToolResult refused = run(*unconfined, {{u"path"_s, u"a.txt"_s}});
    QVERIFY(refused.isError);
    QVERIFY2(refused.content.contains(u"No workspace folder"_s), qPrintable(refused.content));
}

QTEST_GUILESS_MAIN(ToolsTest)
#include "tst_tools.moc"
