#include "agent/replay/replayworkbench.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/builtin/editfiletool.h"
#include "agent/tools/builtin/textreplacement.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/tools/builtin/writefiletool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

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

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

ToolResult run(const Tool &tool, const QJsonObject &arguments)
{
    ToolContext context;
    return tool.invoke(arguments, context);
}

} // namespace

/*
    write_file and edit_file on real files, and the workspace's gate for files
    that do not exist yet. The fixture, fresh for every test:

    outer/secret.txt, outer/secretdir/        what no tool may reach
    outer/ws/                                 the workspace
        a.txt, sub/b.txt, binary.bin, folder/
        link-in -> sub, link-out-dir -> secretdir, link-out-file -> secret.txt, dead -> (missing outside)
*/
class WriteToolsTest : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void resolveForWritingAcceptsNewAndExistingPathsInside_data();
    void resolveForWritingAcceptsNewAndExistingPathsInside();
    void resolveForWritingRefusesPathsThatLeave_data();
    void resolveForWritingRefusesPathsThatLeave();

    void writeFileCreatesAFileAndItsFoldersAndSaysSo();
    void writeFileOverwritesAndSaysWhatItReplaced();
    void writeFileWritesThroughALinkInsideTheWorkspace();
    void writeFileRefusesTargetsItMustNotTouch_data();
    void writeFileRefusesTargetsItMustNotTouch();

    void editFileReplacesTextThatOccursOnce();
    void editFileSaysHowManyMatchesAndWhereWhenAmbiguous();
    void editFileSaysSoWhenTheTextIsMissing();
    void editFileReplacesEveryOccurrenceWhenAsked();
    void editFileKeepsCrlfLineBreaksAndTheByteOrderMark();
    void editFileRefusesWhatItCannotEditSafely_data();
    void editFileRefusesWhatItCannotEditSafely();

    void writesOfTheSameFileShareAnExclusiveKey();
    void theNewToolsAskFirst();
    void aReplayNeverRunsTheAskingToolsAgain();

private:
    QString ws() const { return m_outer->filePath(u"ws"_s); }
    QString outer() const { return m_outer->path(); }

    std::unique_ptr<QTemporaryDir> m_outer;
};

void WriteToolsTest::init()
{
    m_outer = std::make_unique<QTemporaryDir>();
    QVERIFY(m_outer->isValid());
    QVERIFY(writeFile(outer() + u"/secret.txt", "secret\n"));
    QVERIFY(QDir().mkpath(outer() + u"/secretdir"));
    QVERIFY(writeFile(ws() + u"/a.txt", "alpha\n"));
    QVERIFY(writeFile(ws() + u"/sub/b.txt", "beta\n"));
    QVERIFY(writeFile(ws() + u"/binary.bin", QByteArray("text\0more", 9)));
    QVERIFY(QDir().mkpath(ws() + u"/folder"));
    QVERIFY(QFile::link(ws() + u"/sub", ws() + u"/link-in"));
    QVERIFY(QFile::link(outer() + u"/secretdir", ws() + u"/link-out-dir"));
    QVERIFY(QFile::link(outer() + u"/secret.txt", ws() + u"/link-out-file"));
    QVERIFY(QFile::link(outer() + u"/not-yet", ws() + u"/dead"));
}

void WriteToolsTest::resolveForWritingAcceptsNewAndExistingPathsInside_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // relative to the canonical root

    QTest::newRow("an existing file") << u"a.txt"_s << u"a.txt"_s;
    QTest::newRow("a new file at the root") << u"new.txt"_s << u"new.txt"_s;
    QTest::newRow("a new file in new folders") << u"x/y/z.txt"_s << u"x/y/z.txt"_s;
    QTest::newRow("a new file through a link inside") << u"link-in/c.txt"_s << u"sub/c.txt"_s;
    QTest::newRow("dots and doubled slashes") << u"./sub//new.txt"_s << u"sub/new.txt"_s;
}

void WriteToolsTest::resolveForWritingAcceptsNewAndExistingPathsInside()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);

    const Workspace workspace(ws());
    const ResolvedPath resolved = workspace.resolveForWriting(path);
    QVERIFY2(resolved.isValid(), qPrintable(resolved.error));
    QCOMPARE(resolved.path, workspace.canonicalRoot() + u'/' + expected);
}

void WriteToolsTest::resolveForWritingRefusesPathsThatLeave_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedPart");

    QTest::newRow("absolute") << u"/tmp/x.txt"_s << u"absolute"_s;
    QTest::newRow("dot-dot") << u"../x.txt"_s << u"'..'"_s;
    QTest::newRow("dot-dot in the middle") << u"sub/../../x.txt"_s << u"'..'"_s;
    QTest::newRow("a new file through a link outside") << u"link-out-dir/x.txt"_s << u"outside"_s;
    QTest::newRow("an existing link to a file outside") << u"link-out-file"_s << u"outside"_s;
    QTest::newRow("a link whose target is missing") << u"dead"_s << u"target is missing"_s;
    QTest::newRow("below a link whose target is missing") << u"dead/x.txt"_s << u"target is missing"_s;
    QTest::newRow("the root itself") << u"."_s << u"workspace folder itself"_s;
    QTest::newRow("empty") << QString() << u"workspace folder itself"_s;
    QTest::newRow("below a file") << u"a.txt/x.txt"_s << u"is a file"_s;
}

void WriteToolsTest::resolveForWritingRefusesPathsThatLeave()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedPart);

    const ResolvedPath resolved = Workspace(ws()).resolveForWriting(path);
    QVERIFY(!resolved.isValid());
    QVERIFY(resolved.path.isEmpty());
    QVERIFY2(resolved.error.contains(expectedPart), qPrintable(resolved.error));
    QVERIFY(Workspace().resolveForWriting(u"a.txt"_s).error.contains(u"No workspace folder"_s));
}

void WriteToolsTest::writeFileCreatesAFileAndItsFoldersAndSaysSo()
{
    const WriteFileTool tool{Workspace(ws())};
    const ToolResult result
        = run(tool, {{u"path"_s, u"notes/today/plan.md"_s}, {u"content"_s, u"# Plan\nwrite\n"_s}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, u"Created 'notes/today/plan.md' with 13 bytes (2 lines)."_s);
    QCOMPARE(readFile(ws() + u"/notes/today/plan.md"), "# Plan\nwrite\n"_ba);
    const QJsonObject file = result.details.value(u"file"_s).toObject();
    QCOMPARE(file.value(u"created"_s).toBool(), true);
    QCOMPARE(file.value(u"lines"_s).toInt(), 2);
    // No temporary file is left beside it.
    QCOMPARE(QDir(ws() + u"/notes/today"_s).entryList(QDir::Files | QDir::Hidden), QStringList{u"plan.md"_s});
}

void WriteToolsTest::writeFileOverwritesAndSaysWhatItReplaced()
{
    const WriteFileTool tool{Workspace(ws())};
    const ToolResult result = run(tool, {{u"path"_s, u"a.txt"_s}, {u"content"_s, u"été"_s}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, u"Overwrote 'a.txt' with 5 bytes (1 lines); it had 6 bytes."_s);
    QCOMPARE(readFile(ws() + u"/a.txt"), "\xC3\xA9t\xC3\xA9"_ba);
    QCOMPARE(result.details.value(u"file"_s).toObject().value(u"created"_s).toBool(), false);
}

void WriteToolsTest::writeFileWritesThroughALinkInsideTheWorkspace()
{
    const WriteFileTool tool{Workspace(ws())};
    const ToolResult result = run(tool, {{u"path"_s, u"link-in/b.txt"_s}, {u"content"_s, u"new beta\n"_s}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(u"'sub/b.txt'"_s), qPrintable(result.content));
    QCOMPARE(readFile(ws() + u"/sub/b.txt"), "new beta\n"_ba);
    QVERIFY(QFileInfo(ws() + u"/link-in").isSymLink());
}

void WriteToolsTest::writeFileRefusesTargetsItMustNotTouch_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedPart");

    QTest::newRow("outside by dot-dot") << u"../escape.txt"_s << u"'..'"_s;
    QTest::newRow("outside by an absolute path") << outer() + u"/escape.txt" << u"absolute"_s;
    QTest::newRow("a link to a file outside") << u"link-out-file"_s << u"outside"_s;
    QTest::newRow("a new file in a linked folder outside") << u"link-out-dir/escape.txt"_s << u"outside"_s;
    QTest::newRow("a dangling link that would create a file outside") << u"dead"_s << u"target is missing"_s;
    QTest::newRow("a binary file") << u"binary.bin"_s << u"binary"_s;
    QTest::newRow("a folder") << u"folder"_s << u"is a folder"_s;
}

void WriteToolsTest::writeFileRefusesTargetsItMustNotTouch()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedPart);

    const WriteFileTool tool{Workspace(ws())};
    const ToolResult result = run(tool, {{u"path"_s, path}, {u"content"_s, u"pwned"_s}});

    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(expectedPart), qPrintable(result.content));
    QCOMPARE(readFile(outer() + u"/secret.txt"), "secret\n"_ba);
    QVERIFY(!QFileInfo::exists(outer() + u"/escape.txt"));
    QVERIFY(!QFileInfo::exists(outer() + u"/secretdir/escape.txt"));
    QVERIFY(!QFileInfo::exists(outer() + u"/not-yet"));
    QCOMPARE(readFile(ws() + u"/binary.bin"), QByteArray("text\0more", 9));
}

void WriteToolsTest::editFileReplacesTextThatOccursOnce()
{
    QVERIFY(writeFile(ws() + u"/code.py", "def f():\n    return 1\n\nprint(f())\n"));
    const EditFileTool tool{Workspace(ws())};
    const ToolResult result = run(
        tool, {{u"path"_s, u"code.py"_s}, {u"old_text"_s, u"return 1"_s}, {u"new_text"_s, u"return 2"_s}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, u"Edited 'code.py': replaced 1 occurrence (line 2)."_s);
    QCOMPARE(readFile(ws() + u"/code.py"), "def f():\n    return 2\n\nprint(f())\n"_ba);
}

void WriteToolsTest::editFileSaysHowManyMatchesAndWhereWhenAmbiguous()
{
    QVERIFY(writeFile(ws() + u"/list.txt", "x = 1\ny = 2\nx = 1\n\nx = 1\n"));
    const EditFileTool tool{Workspace(ws())};
    const ToolResult result
        = run(tool, {{u"path"_s, u"list.txt"_s}, {u"old_text"_s, u"x = 1"_s}, {u"new_text"_s, u"x = 3"_s}});

    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(u"occurs 3 times (lines 1, 3, 5)"_s), qPrintable(result.content));
    QVERIFY2(result.content.contains(u"replace_all"_s), qPrintable(result.content));
    QCOMPARE(readFile(ws() + u"/list.txt"), "x = 1\ny = 2\nx = 1\n\nx = 1\n"_ba);
}

void WriteToolsTest::editFileSaysSoWhenTheTextIsMissing()
{
    const EditFileTool tool{Workspace(ws())};
    const ToolResult result
        = run(tool, {{u"path"_s, u"a.txt"_s}, {u"old_text"_s, u"gamma"_s}, {u"new_text"_s, u"delta"_s}});

    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(u"0 matches"_s), qPrintable(result.content));
    QCOMPARE(readFile(ws() + u"/a.txt"), "alpha\n"_ba);
}

void WriteToolsTest::editFileReplacesEveryOccurrenceWhenAsked()
{
    QVERIFY(writeFile(ws() + u"/list.txt", "x = 1\ny = 2\nx = 1\n"));
    const EditFileTool tool{Workspace(ws())};
    const ToolResult result = run(tool, {{u"path"_s, u"list.txt"_s},
                                         {u"old_text"_s, u"x = 1"_s},
                                         {u"new_text"_s, u"x = 3"_s},
                                         {u"replace_all"_s, true}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, u"Edited 'list.txt': replaced 2 occurrences (lines 1, 3)."_s);
    QCOMPARE(readFile(ws() + u"/list.txt"), "x = 3\ny = 2\nx = 3\n"_ba);
}

void WriteToolsTest::editFileKeepsCrlfLineBreaksAndTheByteOrderMark()
{
    QVERIFY(writeFile(ws() + u"/win.txt", "\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n"));
    const EditFileTool tool{Workspace(ws())};
    // The model writes "\n"; the file keeps its "\r\n".
    const ToolResult result = run(
        tool,
        {{u"path"_s, u"win.txt"_s}, {u"old_text"_s, u"one\ntwo"_s}, {u"new_text"_s, u"one\n1.5\ntwo"_s}});

    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(readFile(ws() + u"/win.txt"), "\xEF\xBB\xBFone\r\n1.5\r\ntwo\r\nthree\r\n"_ba);

    // A file with plain "\n" is matched as it is.
    const TextReplacement plain = replaceInFileText(u"a\nb\n"_s, u"a\nb"_s, u"c"_s, false);
    QCOMPARE(plain.text, u"c\n"_s);
}

void WriteToolsTest::editFileRefusesWhatItCannotEditSafely_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedPart");

    QTest::newRow("a missing file") << u"nope.txt"_s << u"write_file to create"_s;
    QTest::newRow("outside by dot-dot") << u"../secret.txt"_s << u"'..'"_s;
    QTest::newRow("a link to a file outside") << u"link-out-file"_s << u"outside"_s;
    QTest::newRow("a binary file") << u"binary.bin"_s << u"binary"_s;
    QTest::newRow("a folder") << u"folder"_s << u"is a folder"_s;
    QTest::newRow("text that is not UTF-8") << u"latin1.txt"_s << u"not valid UTF-8"_s;
}

void WriteToolsTest::editFileRefusesWhatItCannotEditSafely()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedPart);
    QVERIFY(writeFile(ws() + u"/latin1.txt", "caf\xE9 secret\n"));

    const EditFileTool tool{Workspace(ws())};
    const ToolResult result
        = run(tool, {{u"path"_s, path}, {u"old_text"_s, u"secret"_s}, {u"new_text"_s, u"public"_s}});

    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(expectedPart), qPrintable(result.content));
    QCOMPARE(readFile(outer() + u"/secret.txt"), "secret\n"_ba);
    QCOMPARE(readFile(ws() + u"/latin1.txt"), "caf\xE9 secret\n"_ba);
}

void WriteToolsTest::writesOfTheSameFileShareAnExclusiveKey()
{
    const WriteFileTool writer{Workspace(ws())};
    const EditFileTool editor{Workspace(ws())};
    const QString key = writer.exclusiveKey({{u"path"_s, u"sub/b.txt"_s}});
    QVERIFY(!key.isEmpty());
    QCOMPARE(editor.exclusiveKey({{u"path"_s, u"link-in/b.txt"_s}}), key); // the same file by another name
    QCOMPARE(writer.exclusiveKey({{u"path"_s, u"./sub/b.txt"_s}}), key);
    QVERIFY(writer.exclusiveKey({{u"path"_s, u"a.txt"_s}}) != key);
    QCOMPARE(writer.exclusiveKey({{u"path"_s, u"../x"_s}}), QString()); // refused: it fails on its own
}

void WriteToolsTest::theNewToolsAskFirst()
{
    for (const QString &name : builtinToolNames()) {
        const auto tool = createBuiltinTool(name, Workspace(ws()));
        QVERIFY(tool);
        const bool effects
            = QStringList{u"write_file"_s, u"edit_file"_s, u"run_command"_s, u"fetch_url"_s}.contains(name);
        QCOMPARE(tool->behaviour().asksFirst, effects);
    }
}

void WriteToolsTest::aReplayNeverRunsTheAskingToolsAgain()
{
    const ReplayWorkbench::ToolProvider live = ReplayWorkbench::builtinTools(Workspace(ws()));
    for (const QString &name : builtinToolNames()) {
        const auto tool = createBuiltinTool(name, Workspace(ws()));
        QCOMPARE(live(name) == nullptr, tool->behaviour().asksFirst);
    }
}

QTEST_GUILESS_MAIN(WriteToolsTest)
#include "tst_writetools.moc"
