#include "ui/chat/codeblockview.h"
#include "ui/chat/markdownblocks.h"
#include "ui/chat/markdownsegments.h"
#include "ui/chat/markdownview.h"
#include "ui/chat/streamedmarkdown.h"
#include "ui/chat/textblockview.h"

#include <QResizeEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QVBoxLayout>

using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;
using Kind = MarkdownSegment::Kind;

Q_DECLARE_METATYPE(QList<MarkdownSegment>)

namespace QTest {
template<>
char *toString(const MarkdownSegment &segment)
{
    const QString text
        = u"%1(%2%3: %4)"_s.arg(segment.kind == Kind::Code ? u"code"_s : u"prose"_s, segment.language,
                                segment.closed ? QString() : u", open"_s, segment.text);
    return qstrdup(text.toUtf8().constData());
}
} // namespace QTest

namespace {

// How often a widget moved or was resized (and shrank) while it was watched.
class GeometryLog final : public QObject
{
public:
    explicit GeometryLog(QWidget *widget) { widget->installEventFilter(this); }
    int moves = 0;
    int resizes = 0;
    int shrinks = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Move)
            ++moves;
        if (event->type() == QEvent::Resize) {
            const auto *resize = static_cast<QResizeEvent *>(event);
            ++resizes;
            shrinks += resize->size().height() < resize->oldSize().height() ? 1 : 0;
        }
        return false;
    }
};

} // namespace

class MarkdownViewTest : public QObject
{
    Q_OBJECT

private slots:
    void markdownSplitsIntoProseAndFencedCode_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QList<MarkdownSegment>>("expected");

        QTest::newRow("prose only") << u"# Title\n\nSome *text*."_s
                                    << QList<MarkdownSegment>{
                                           {Kind::Prose, u"# Title\n\nSome *text*."_s, {}, true}};
        QTest::newRow("a closed fence between prose")
            << u"Before\n```python\nprint(1)\nprint(2)\n```\nAfter"_s
            << QList<MarkdownSegment>{{Kind::Prose, u"Before"_s, {}, true},
                                      {Kind::Code, u"print(1)\nprint(2)"_s, u"python"_s, true},
                                      {Kind::Prose, u"After"_s, {}, true}};
        QTest::newRow("an open fence while the answer streams")
            << u"Look:\n\n```js\nconst x"_s
            << QList<MarkdownSegment>{{Kind::Prose, u"Look:\n"_s, {}, true},
                                      {Kind::Code, u"const x"_s, u"js"_s, false}};
        QTest::newRow("tildes and an info string with more words")
            << u"~~~ sh title=x\nls\n~~~"_s << QList<MarkdownSegment>{{Kind::Code, u"ls"_s, u"sh"_s, true}};
        QTest::newRow("a longer fence holds a shorter one")
            << u"````md\n```\ninner\n```\n````"_s
            << QList<MarkdownSegment>{{Kind::Code, u"```\ninner\n```"_s, u"md"_s, true}};
        QTest::newRow("an indented fence in a list loses its indentation")
            << u"1. Run\n   ```\n   make\n     -j2\n   ```"_s
            << QList<MarkdownSegment>{{Kind::Prose, u"1. Run"_s, {}, true},
                                      {Kind::Code, u"make\n  -j2"_s, {}, true}};
        QTest::newRow("backticks on one line are inline code")
            << u"Use ```x``` here"_s
            << QList<MarkdownSegment>{{Kind::Prose, u"Use ```x``` here"_s, {}, true}};
        QTest::newRow("windows line ends")
            << u"a\r\n```\r\nb\r\n```\r\n"_s
            << QList<MarkdownSegment>{{Kind::Prose, u"a"_s, {}, true}, {Kind::Code, u"b"_s, {}, true}};
        QTest::newRow("nothing") << QString() << QList<MarkdownSegment>{};
    }
    void markdownSplitsIntoProseAndFencedCode()
    {
        QFETCH(QString, markdown);
        QFETCH(QList<MarkdownSegment>, expected);
        QCOMPARE(splitMarkdown(markdown), expected);
    }

    void streamingRendersOnlyTheSegmentThatChanged()
    {
        MarkdownView view;
        view.setText(u"Intro paragraph.\n\n```py\nx = 1"_s);
        QCOMPARE(view.proseBlocks().size(), 1);
        QCOMPARE(view.codeBlocks().size(), 1);
        QCOMPARE(view.renderCount(), 2);
        TextBlockView *intro = view.proseBlocks().at(0);
        CodeBlockView *code = view.codeBlocks().at(0);

        view.setText(u"Intro paragraph.\n\n```py\nx = 1\ny = 2"_s);
        QCOMPARE(view.renderCount(), 3);
        QCOMPARE(view.proseBlocks().at(0), intro);
        QCOMPARE(view.codeBlocks().at(0), code);
        QCOMPARE(code->code(), u"x = 1\ny = 2"_s);

        view.setText(u"Intro paragraph.\n\n```py\nx = 1\ny = 2\n```\n\nOutro."_s);
        QCOMPARE(view.proseBlocks().size(), 2);
        QCOMPARE(view.proseBlocks().at(0), intro);
        QCOMPARE(view.codeBlocks().at(0), code);
        QCOMPARE(view.proseBlocks().at(1)->toPlainText(), u"Outro."_s);

        // The same text again renders nothing.
        const int renders = view.renderCount();
        view.setText(view.text());
        QCOMPARE(view.renderCount(), renders);
    }

    void aSegmentThatChangesKindIsReplaced()
    {
        MarkdownView view;
        view.setText(u"``"_s);
        QCOMPARE(view.proseBlocks().size(), 1);
        view.setText(u"```\ncode"_s);
        QCOMPARE(view.proseBlocks().size(), 0);
        QCOMPARE(view.codeBlocks().size(), 1);
        QCOMPARE(view.codeBlocks().at(0)->code(), u"code"_s);
    }

    void plainTextIsNotReadAsMarkdown()
    {
        MarkdownView view(MarkdownView::Format::PlainText);
        view.setText(u"*not emphasis*\n```\nnot code\n```"_s);
        QCOMPARE(view.codeBlocks().size(), 0);
        QCOMPARE(view.proseBlocks().size(), 1);
        QCOMPARE(view.proseBlocks().at(0)->toPlainText(), u"*not emphasis*\n```\nnot code\n```"_s);
    }

    void theLastBlockStartsAfterABlankLineAtTheMargin_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<int>("expected");

        QTest::newRow("one paragraph") << u"One\ntwo"_s << 0;
        QTest::newRow("two paragraphs") << u"One\n\nTwo\n"_s << 5;
        QTest::newRow("a line still being written starts nothing") << u"One\n\nTw"_s << 0;
        QTest::newRow("a loose list stays one block") << u"- a\n\n- b\n"_s << 0;
        QTest::newRow("another marker starts another list") << u"- a\n\n* b\n"_s << 5;
        QTest::newRow("an ordered list after a paragraph") << u"Intro\n\n1. a\n"_s << 7;
        QTest::newRow("an empty item continues its list") << u"1. a\n\n2.\n"_s << 0;
        QTest::newRow("indented text belongs to the item") << u"- a\n\n  more\n"_s << 0;
        QTest::newRow("a paragraph after a list") << u"- a\n- b\n\nAfter\n"_s << 9;
        QTest::newRow("a table after a heading") << u"# T\n\n| a |\n| - |\n"_s << 5;
        QTest::newRow("leading blank lines") << u"\n\nOne\n"_s << 0;
    }
    void theLastBlockStartsAfterABlankLineAtTheMargin()
    {
        QFETCH(QString, markdown);
        QFETCH(int, expected);
        QCOMPARE(lastMarkdownBlockStart(markdown), expected);
        // Searching on from an earlier block start finds the same.
        QCOMPARE(lastMarkdownBlockStart(markdown, lastMarkdownBlockStart(markdown)), expected);
    }

    // Streaming renders block by block; the result must not depend on where
    // the chunks happened to end.
    void aStreamedDocumentRendersAsTheWholeDocument_data()
    {
        QTest::addColumn<QString>("markdown");

        QTest::newRow("paragraphs and headings")
            << u"# Title\n\nSome *text* and **more**.\nStill the same paragraph.\n\n## Part\n\nEnd."_s;
        QTest::newRow("a tight list, a loose list, a nested list")
            << u"Intro:\n- a\n- b\n\nText\n\n1. one\n\n2. two\n   - nested\n   - more\n\n3. three\n\nAfter."_s;
        QTest::newRow("a table between paragraphs")
            << u"Before\n\n| Name | Value |\n| --- | ---: |\n| a | 1 |\n| b | 2 |\n\nAfter the table."_s;
        QTest::newRow("quotes, rules and links")
            << u"> quoted\n> more\n\n---\n\nSee [docs](https://example.org) and `code`.\n\n> again"_s;
        QTest::newRow("multi-byte characters") << u"Zürich 東京 😀 ok\n\n- 21 °C\n- 東京 😀\n\nÉté 😀."_s;
        QTest::newRow("setext headings and indented code")
            << u"Title\n=====\n\ntext\n\n    indented code\n\n    more code\n\nEnd"_s;
        QTest::newRow("windows line ends") << u"One\r\n\r\n- a\r\n- b\r\n\r\nTwo"_s;
    }
    void aStreamedDocumentRendersAsTheWholeDocument()
    {
        QFETCH(QString, markdown);
        QTextDocument whole;
        whole.setMarkdown(markdown);

        const auto render = [](const QStringList &chunks, int *fullRenders) {
            auto document = std::make_unique<QTextDocument>();
            StreamedMarkdown streamed(document.get());
            QString text;
            for (const QString &chunk : chunks) {
                text += chunk;
                streamed.setMarkdown(text);
            }
            *fullRenders = streamed.fullRenders();
            return document;
        };
        const auto expectSame = [&](const QStringList &chunks) {
            int fullRenders = 0;
            const std::unique_ptr<QTextDocument> streamed = render(chunks, &fullRenders);
            QCOMPARE(fullRenders, 1); // the rest were appended
            QCOMPARE(streamed->toPlainText(), whole.toPlainText());
            QCOMPARE(streamed->toMarkdown(), whole.toMarkdown());
            QCOMPARE(streamed->toHtml(), whole.toHtml());
        };
        // Every cut in two, in code units (so also inside a surrogate pair)...
        for (qsizetype cut = 0; cut <= markdown.size(); ++cut) {
            expectSame({markdown.left(cut), markdown.mid(cut)});
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(u"cut at %1"_s.arg(cut)));
        }
        // ...and chunks of every size up to a dozen.
        for (qsizetype size = 1; size <= 12; ++size) {
            QStringList chunks;
            for (qsizetype at = 0; at < markdown.size(); at += size)
                chunks.append(markdown.mid(at, size));
            expectSame(chunks);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(u"chunks of %1"_s.arg(size)));
        }
    }

    void textThatDoesNotExtendTheRenderedTextIsRenderedAfresh()
    {
        QTextDocument document;
        StreamedMarkdown streamed(&document);
        streamed.setMarkdown(u"- a\n\nPara\n"_s);
        // Same finished block, but the line that ended it now continues the list.
        streamed.setMarkdown(u"- a\n\n- b\n"_s);
        QTextDocument whole;
        whole.setMarkdown(u"- a\n\n- b\n"_s);
        QCOMPARE(document.toHtml(), whole.toHtml());
        QCOMPARE(streamed.fullRenders(), 2);
    }

    // The view streams segment by segment and block by block: whatever the
    // chunks, it ends as the view given the whole text at once.
    void aStreamedMessageEndsAsTheWholeMessage_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::newRow("prose, a fence, prose")
            << u"# Plan\n\nFirst *this*.\n\n```cpp\nint x = 1;\n\nint y = 2;\n```\n\nThen that.\n"_s;
        QTest::newRow("a list holding a fence")
            << u"1. Build:\n   ```sh\n   make\n   ```\n2. Run it\n\n- done\n"_s;
        QTest::newRow("a table, then an open fence")
            << u"| a | b |\n| - | - |\n| 1 | 2 |\n\n~~~\nstill open"_s;
        QTest::newRow("multi-byte characters around a fence")
            << u"東京 😀\n\n```\n😀 Zürich\n```\n\n- °C 😀\n"_s;
    }
    void aStreamedMessageEndsAsTheWholeMessage()
    {
        QFETCH(QString, markdown);
        MarkdownView whole;
        whole.setText(markdown);
        const auto html = [](const MarkdownView &view) {
            QStringList parts;
            for (const TextBlockView *prose : view.proseBlocks())
                parts.append(prose->document()->toHtml());
            for (const CodeBlockView *code : view.codeBlocks())
                parts.append(code->language() + u':' + code->code());
            return parts;
        };
        for (qsizetype size = 1; size <= 9; ++size) {
            MarkdownView streamed;
            for (qsizetype at = size; at < markdown.size() + size; at += size)
                streamed.setText(markdown.left(at));
            QCOMPARE(streamed.text(), markdown);
            QCOMPARE(html(streamed), html(whole));
        }
    }

    // Each move or shrink repaints a block; a streaming answer renders many times a second.
    void whileAnAnswerStreamsTheBlocksAboveItStayPutAndItsLastBlockOnlyGrows()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *view = new MarkdownView;
        layout->addWidget(view);
        layout->addStretch();
        window.resize(360, 2000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The answer so far: a paragraph, code, and the first word of the block that streams.
        QString text = u"Intro paragraph.\n\n```py\nx = 1\ny = 2\n```\n\nFirst "_s;
        view->setText(text);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QCOMPARE(view->codeBlocks().size(), 1);
        CodeBlockView *code = view->codeBlocks().at(0);
        TextBlockView *intro = view->proseBlocks().at(0);

        // The first layout settles over a few posted events, more of them on a busy machine: the
        // blocks are measured once it has.
        QPoint codeAt;
        QTRY_VERIFY([&] {
            const QPoint before = code->pos();
            QTest::qWait(50);
            codeAt = code->pos();
            return codeAt == before;
        }());
        GeometryLog introLog(intro);
        GeometryLog codeLog(code);
        for (int word = 0; word < 120; ++word) {
            text += u"word "_s;
            if (word % 25 == 24)
                text += u"\n\n"_s;
            view->setText(text);
            QCoreApplication::processEvents();
        }
        QCOMPARE(view->proseBlocks().size(), 2);
        TextBlockView *last = view->proseBlocks().at(1);
        QVERIFY(last->height() > 4 * last->fontMetrics().lineSpacing());
        QCOMPARE(code->pos(), codeAt);
        QCOMPARE(introLog.moves + codeLog.moves, 0);
        QCOMPARE(introLog.resizes + codeLog.resizes, 0);

        // The streaming block: shrinking and growing again would repaint it twice per batch.
        GeometryLog lastLog(last);
        for (int word = 0; word < 60; ++word) {
            text += u"more "_s;
            view->setText(text);
            QCoreApplication::processEvents();
        }
        QVERIFY(lastLog.resizes > 0);
        QCOMPARE(lastLog.shrinks, 0);
    }

    // Qt shapes text again for every paint unless a block keeps its glyphs.
    void proseKeepsItsShapedTextForTheNextPaint()
    {
        MarkdownView view;
        view.setText(u"# Title\n\nA paragraph.\n\n- an item\n"_s);
        view.setText(view.text() + u"\nMore, streamed."_s);
        const QTextDocument *document = view.proseBlocks().at(0)->document();
        int blocks = 0;
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next(), ++blocks)
            QVERIFY2(block.layout()->cacheEnabled(), qPrintable(block.text()));
        QVERIFY(blocks >= 4);
    }

    void aTextBlockIsAsTallAsItsText()
    {
        TextBlockView view;
        view.resize(300, 10);
        view.show(); // a hidden text view has no width to lay its text out in
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setPlainText(u"one line"_s);
        const int oneLine = view.height();
        view.setPlainText(u"1\n2\n3\n4\n5\n6"_s);
        const int sixLines = view.height();
        QVERIFY2(sixLines >= oneLine + 4 * view.fontMetrics().lineSpacing(),
                 qPrintable(u"%1 vs %2"_s.arg(sixLines).arg(oneLine)));

        view.setMaximumLines(3);
        QVERIFY(view.height() < sixLines);
        QCOMPARE(view.verticalScrollBarPolicy(), Qt::ScrollBarAsNeeded);
    }

    void aTableWiderThanTheMessageScrollsSidewaysInsteadOfLosingItsLastColumn()
    {
        MarkdownView view;
        view.resize(300, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setText(
            u"| Provider | Model | Iterations | Tool calls | Tokens in | Tokens out | Cost | Last |\n"
            "|---|---|---|---|---|---|---|---|\n"
            "| openai | gpt-4o-mini | 3 | 4 | 1648 | 212 | $0.0004 | end |\n"_s);
        QCOMPARE(view.proseBlocks().size(), 1);
        TextBlockView *prose = view.proseBlocks().at(0);
        QTRY_VERIFY2(
            prose->document()->size().width() > prose->viewport()->width(),
            qPrintable(u"%1 in %2"_s.arg(prose->document()->size().width()).arg(prose->viewport()->width())));

        // The last column is there to scroll to, below a text that is tall enough for the bar.
        QScrollBar *bar = prose->horizontalScrollBar();
        QTRY_VERIFY(bar->isVisible());
        QVERIFY(bar->maximum() > 0);
        QTRY_VERIFY(prose->viewport()->height() >= int(prose->document()->size().height()));
    }
};

QTEST_MAIN(MarkdownViewTest)
#include "tst_markdownview.moc"
