#include "agent/debug/toolcallpreview.h"
#include "agent/tools/linediff.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::LineDiff)

namespace {

QString numbered(int first, int last)
{
    QString text;
    for (int i = first; i <= last; ++i)
        text += u"line %1\n"_s.arg(i);
    return text;
}

} // namespace

class ToolCallPreviewTest : public QObject
{
    Q_OBJECT

private slots:
    void diffIsUnifiedWithThreeLinesOfContext_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("unified");

        QTest::newRow("a new file is all added")
            << QString() << u"a\nb\n"_s << u"@@ -0,0 +1,2 @@\n+a\n+b\n"_s;
        QTest::newRow("an emptied file is all removed")
            << u"a\nb\n"_s << QString() << u"@@ -1,2 +0,0 @@\n-a\n-b\n"_s;
        QTest::newRow("an edit in the middle keeps three lines each side")
            << numbered(1, 10) << numbered(1, 10).replace(u"line 5\n"_s, u"five\n"_s)
            << u"@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n"_s;
        QTest::newRow("an edit at the start")
            << numbered(1, 6) << u"zero\n"_s + numbered(2, 6)
            << u"@@ -1,4 +1,4 @@\n-line 1\n+zero\n line 2\n line 3\n line 4\n"_s;
        QTest::newRow("an addition at the end")
            << numbered(1, 5) << numbered(1, 6) << u"@@ -3,3 +3,4 @@\n line 3\n line 4\n line 5\n+line 6\n"_s;
        QTest::newRow("a missing final line break is said")
            << u"a\nb"_s << u"a\nb\n"_s << u"@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"_s;
        QTest::newRow("distant changes are separate hunks")
            << numbered(1, 20)
            << numbered(1, 20).replace(u"line 2\n"_s, u"two\n"_s).replace(u"line 18\n"_s, u"x\n"_s)
            << u"@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n"
               "@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n+x\n line 19\n line 20\n"_s;
        QTest::newRow("near changes share a hunk")
            << numbered(1, 12)
            << numbered(1, 12).replace(u"line 3\n"_s, u"3\n"_s).replace(u"line 9\n"_s, u"9\n"_s)
            << u"@@ -1,12 +1,12 @@\n line 1\n line 2\n-line 3\n+3\n line 4\n line 5\n line 6\n line 7\n line "
               u"8\n"
               "-line 9\n+9\n line 10\n line 11\n line 12\n"_s;
    }
    void diffIsUnifiedWithThreeLinesOfContext()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QString, unified);
        const LineDiff diff = diffLines(before, after);
        QCOMPARE(diff.unifiedText(), unified);
        QVERIFY(!diff.truncated);
    }

    void identicalTextsHaveNoDiff()
    {
        const LineDiff diff = diffLines(numbered(1, 50), numbered(1, 50));
        QVERIFY(diff.isEmpty());
        QVERIFY(diff.lines.isEmpty());
    }

    void everyLineKeepsItsOldAndNewNumber()
    {
        const LineDiff diff
            = diffLines(numbered(1, 10), numbered(1, 10).replace(u"line 5\n"_s, u"five\nsix\n"_s));
        QCOMPARE(diff.added, 2);
        QCOMPARE(diff.removed, 1);
        QCOMPARE(diff.lines.at(0).kind, DiffLine::Kind::HunkHeader);
        QCOMPARE(diff.lines.at(1), (DiffLine{DiffLine::Kind::Context, u"line 2"_s, 2, 2}));
        QCOMPARE(diff.lines.at(4), (DiffLine{DiffLine::Kind::Removed, u"line 5"_s, 5, 0}));
        QCOMPARE(diff.lines.at(5), (DiffLine{DiffLine::Kind::Added, u"five"_s, 0, 5}));
        QCOMPARE(diff.lines.at(6), (DiffLine{DiffLine::Kind::Added, u"six"_s, 0, 6}));
        QCOMPARE(diff.lines.at(7), (DiffLine{DiffLine::Kind::Context, u"line 6"_s, 6, 7}));
    }

    void aLargeDiffIsCappedWithANote()
    {
        const LineDiff diff = diffLines(QString(), numbered(1, 5000), 3, 2000);
        QCOMPARE(diff.added, 5000);
        QVERIFY(diff.truncated);
        QCOMPARE(diff.lines.size(), 2001);
        QCOMPARE(diff.lines.constLast().kind, DiffLine::Kind::Note);
        QVERIFY2(diff.lines.constLast().text.contains(u"3001"_s), qPrintable(diff.lines.constLast().text));
    }

    void aSmallEditOfALargeFileIsOneHunk()
    {
        const QString before = numbered(1, 100'000);
        const LineDiff diff = diffLines(before, QString(before).replace(u"line 50000\n"_s, u"changed\n"_s));
        QVERIFY(!diff.approximate);
        QCOMPARE(diff.added, 1);
        QCOMPARE(diff.removed, 1);
        QCOMPARE(diff.lines.constFirst().text, u"@@ -49997,7 +49997,7 @@"_s);
        QCOMPARE(diff.lines.size(), 9);
    }

    void aWholesaleRewriteOfALargeFileIsShownAsRemovedAndAdded()
    {
        QString after;
        for (int i = 1; i <= 30'000; ++i)
            after += u"row %1\n"_s.arg(i);
        const LineDiff diff = diffLines(numbered(1, 30'000), after);
        QVERIFY(diff.approximate);
        QCOMPARE(diff.removed, 30'000);
        QCOMPARE(diff.added, 30'000);
        QCOMPARE(diff.lines.constFirst().kind, DiffLine::Kind::Note);
        QCOMPARE(diff.lines.at(1).text, u"@@ -1,30000 +1,30000 @@"_s);
        QVERIFY(diff.truncated);
    }

    void previewOfAWriteDiffsAgainstTheFileOnDisk_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<bool>("newFile");
        QTest::addColumn<QString>("diff");
        QTest::addColumn<QString>("error");

        QTest::newRow("a new file") << u"write_file"_s
                                    << QJsonObject{{u"path"_s, u"notes/new.txt"_s},
                                                   {u"content"_s, u"hello\n"_s}}
                                    << true << u"@@ -0,0 +1 @@\n+hello\n"_s << QString();
        QTest::newRow("an overwrite")
            << u"write_file"_s << QJsonObject{{u"path"_s, u"a.txt"_s}, {u"content"_s, u"one\nTWO\nthree\n"_s}}
            << false << u"@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"_s << QString();
        QTest::newRow("an edit") << u"edit_file"_s
                                 << QJsonObject{{u"path"_s, u"a.txt"_s},
                                                {u"old_text"_s, u"three"_s},
                                                {u"new_text"_s, u"3"_s}}
                                 << false << u"@@ -1,3 +1,3 @@\n one\n two\n-three\n+3\n"_s << QString();
        QTest::newRow("an edit that does not apply")
            << u"edit_file"_s
            << QJsonObject{{u"path"_s, u"a.txt"_s}, {u"old_text"_s, u"four"_s}, {u"new_text"_s, u"4"_s}}
            << false << QString() << u"not found"_s;
        QTest::newRow("an edit of a missing file")
            << u"edit_file"_s
            << QJsonObject{{u"path"_s, u"gone.txt"_s}, {u"old_text"_s, u"a"_s}, {u"new_text"_s, u"b"_s}}
            << true << QString() << u"does not exist"_s;
        QTest::newRow("a path outside")
            << u"write_file"_s << QJsonObject{{u"path"_s, u"../x.txt"_s}, {u"content"_s, u"x"_s}} << false
            << QString() << u"'..'"_s;
    }
    void previewOfAWriteDiffsAgainstTheFileOnDisk()
    {
        QFETCH(QString, tool);
        QFETCH(QJsonObject, arguments);
        QFETCH(bool, newFile);
        QFETCH(QString, diff);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QFile file(dir.filePath(u"a.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("one\ntwo\nthree\n");
        file.close();

        const ToolCallPreview preview = previewToolCall(tool, arguments, Workspace(dir.path()));
        QCOMPARE(preview.kind, ToolCallPreview::Kind::FileChange);
        QCOMPARE(preview.diff.unifiedText(), diff);
        if (error.isEmpty()) {
            QCOMPARE(preview.newFile, newFile);
            QCOMPARE(preview.error, QString());
        } else {
            QVERIFY2(preview.error.contains(error, Qt::CaseInsensitive), qPrintable(preview.error));
            QVERIFY2(preview.text().contains(preview.error), qPrintable(preview.text()));
        }
    }

    void previewOfACommandSaysWhereAndHowLong()
    {
        QTemporaryDir dir;
        const ToolCallPreview preview
            = previewToolCall(u"run_command"_s, {{u"command"_s, u"make test"_s}}, Workspace(dir.path()));
        QCOMPARE(preview.kind, ToolCallPreview::Kind::Command);
        QCOMPARE(preview.command, u"make test"_s);
        QCOMPARE(preview.folder, QDir::toNativeSeparators(QDir(dir.path()).canonicalPath()));
        QCOMPARE(preview.timeoutSeconds, 120);
        QCOMPARE(previewToolCall(u"run_command"_s, {{u"command"_s, u"ls"_s}, {u"timeout_s"_s, 5}},
                                 Workspace(dir.path()))
                     .timeoutSeconds,
                 5);
        QVERIFY(preview.text().contains(u"make test"_s));
    }

    void previewOfAFetchNamesTheHost_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("isPrivate");

        QTest::newRow("public") << u"https://Example.org/page?q=1"_s << u"example.org"_s << false;
        QTest::newRow("loopback") << u"http://127.0.0.1:8080/"_s << u"127.0.0.1"_s << true;
        QTest::newRow("localhost") << u"http://localhost/"_s << u"localhost"_s << true;
        QTest::newRow("LAN") << u"http://192.168.1.20/admin"_s << u"192.168.1.20"_s << true;
        QTest::newRow("10/8") << u"http://10.1.2.3/"_s << u"10.1.2.3"_s << true;
        QTest::newRow("IPv6 loopback") << u"http://[::1]/"_s << u"::1"_s << true;
        QTest::newRow("public address") << u"http://8.8.8.8/"_s << u"8.8.8.8"_s << false;
    }
    void previewOfAFetchNamesTheHost()
    {
        QFETCH(QString, url);
        QFETCH(QString, host);
        QFETCH(bool, isPrivate);
        const ToolCallPreview preview = previewToolCall(u"fetch_url"_s, {{u"url"_s, url}}, Workspace());
        QCOMPARE(preview.kind, ToolCallPreview::Kind::Fetch);
        QCOMPARE(preview.host, host);
        QCOMPARE(preview.privateAddress, isPrivate);
        QCOMPARE(preview.error, QString());
    }

    void otherToolsHaveNoPreview()
    {
        QVERIFY(!hasToolCallPreview(u"read_file"_s));
        QCOMPARE(previewToolCall(u"read_file"_s, {{u"path"_s, u"a"_s}}, Workspace()).kind,
                 ToolCallPreview::Kind::None);
    }
};

QTEST_GUILESS_MAIN(ToolCallPreviewTest)
#include "tst_toolcallpreview.moc"
