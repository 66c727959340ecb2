#include "ui/trace/sourceviewer.h"

#include "ui/chat/sourcesline.h"

#include "tests/support/testfiles.h"
#include "tests/support/testpdf.h"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using namespace Loopscope::Testing;

namespace {

QByteArray numberedLines(int count, const QByteArray &word = "line")
{
    QByteArray text;
    for (int i = 1; i <= count; ++i)
        text += word + ' ' + QByteArray::number(i) + '\n';
    return text;
}

} // namespace

/*
    A retrieved passage shown in its file, read-only: the passage's lines highlighted and in view, a
    PDF's page as indexing read it, and a file that is gone or changed said so.
*/
class TestSourceViewer final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void showsThePassagesLinesInItsFile_data()
    {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("content"); // null: no such file
        QTest::addColumn<int>("page");
        QTest::addColumn<int>("startLine");
        QTest::addColumn<int>("endLine");
        QTest::addColumn<QString>("passage");
        QTest::addColumn<QString>("highlighted");
        QTest::addColumn<QString>("message"); // a part of it; empty: none

        QTest::newRow("a text file's lines")
            << u"notes.md"_s << numberedLines(200) << 0 << 120 << 122 << u"line 120\nline 121\nline 122"_s
            << u"line 120\nline 121\nline 122"_s << QString();
        QTest::newRow("an HTML file, as indexing reads it")
            << u"page.html"_s
            << QByteArray("<html><body><h1>Tides</h1><p>The keeper logs the tide.</p></body></html>") << 0
            << 3 << 3 << u"The keeper logs the tide."_s << u"The keeper logs the tide."_s << QString();
        QTest::newRow("a PDF's page")
            << u"guide.pdf"_s << pdfWithPages({u"Cover words"_s, u"Refunds need a receipt"_s}) << 2 << 1 << 1
            << u"Refunds need a receipt"_s << u"Refunds need a receipt"_s << QString();
        QTest::newRow("a file that is gone") << u"gone.md"_s << QByteArray() << 0 << 3 << 4 << u"line 3"_s
                                             << QString() << u"no longer there"_s;
        QTest::newRow("a file that became shorter") << u"short.md"_s << numberedLines(5) << 0 << 40 << 42
                                                    << u"line 40"_s << QString() << u"has 6 lines now"_s;
        QTest::newRow("a file whose lines changed")
            << u"edited.md"_s << numberedLines(20, "row") << 0 << 4 << 5 << u"line 4\nline 5"_s
            << u"row 4\nrow 5"_s << u"no longer hold the passage"_s;
    }

    void showsThePassagesLinesInItsFile()
    {
        QFETCH(QString, fileName);
        QFETCH(QByteArray, content);
        QFETCH(int, page);
        QFETCH(int, startLine);
        QFETCH(int, endLine);
        QFETCH(QString, passage);
        QFETCH(QString, highlighted);
        QFETCH(QString, message);
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(fileName);
        if (!content.isNull())
            QVERIFY(writeFile(path, content));
        RetrievalHit hit{u"notes"_s, path, startLine, endLine, 1.5, {}, {}, passage};
        if (page)
            hit.page = page;
        Ui::SourceViewer viewer;
        viewer.resize(500, 300);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));

        viewer.showPassage(hit);

        QTRY_VERIFY(!viewer.isReading());
        QCOMPARE(viewer.highlightedText(), highlighted);
        if (message.isEmpty())
            QCOMPARE(viewer.message(), QString());
        else
            QVERIFY2(viewer.message().contains(message), qPrintable(viewer.message()));
        QVERIFY(viewer.textView()->isReadOnly());
        if (!highlighted.isEmpty()) {
            // The passage is in view, the caret on its first line.
            const QTextCursor caret = viewer.textView()->textCursor();
            QCOMPARE(caret.blockNumber(), startLine - 1);
            QVERIFY(viewer.textView()->viewport()->rect().contains(viewer.textView()->cursorRect().center()));
        }
    }

    void aSourceUnderAnAnswerShowsItsPassageInTheViewer()
    {
        const QString path = m_dir.filePath(u"answer.md"_s);
        QVERIFY(writeFile(path, numberedLines(60)));
        QWidget window;
        Ui::SourcesLine sources(&window);
        sources.setSources({RetrievalHit{u"notes"_s, path, 41, 42, 1.0, {}, {}, u"line 41\nline 42"_s},
                            RetrievalHit{u"notes"_s, path, 7, 7, 0.5, {}, {}, u"line 7"_s}});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        sources.openSource(0);

        QPointer<Ui::SourceViewer> viewer = sources.viewer();
        QVERIFY(viewer);
        QVERIFY(viewer->isVisible());
        QTRY_VERIFY(!viewer->isReading());
        QCOMPARE(viewer->highlightedText(), u"line 41\nline 42"_s);
        QCOMPARE(viewer->textView()->textCursor().blockNumber(), 40);

        // Another source goes to the same viewer.
        sources.openSource(1);
        QCOMPARE(sources.viewer(), viewer.data());
        QTRY_VERIFY(!viewer->isReading());
        QCOMPARE(viewer->highlightedText(), u"line 7"_s);
        viewer->close();
    }

    void openInDefaultAppHandsTheFileToTheDesktop()
    {
        const QString path = m_dir.filePath(u"open.md"_s);
        QVERIFY(writeFile(path, numberedLines(3)));
        Ui::SourceViewer viewer;
        QList<std::pair<QString, int>> opened;
        viewer.setOpener([&opened](const QString &file, int line) { opened.append({file, line}); });
        viewer.showPassage(RetrievalHit{u"notes"_s, path, 2, 2, 1.0, {}, {}, u"line 2"_s});
        QTRY_VERIFY(!viewer.isReading());

        QPushButton *button = nullptr;
        for (QPushButton *candidate : viewer.findChildren<QPushButton *>()) {
            if (candidate->text().contains(u"Default App"_s))
                button = candidate;
        }
        QVERIFY(button);
        button->click();

        QCOMPARE(opened, (QList<std::pair<QString, int>>{{path, 2}}));
    }
};

QTEST_MAIN(TestSourceViewer)
#include "tst_sourceviewer.moc"
