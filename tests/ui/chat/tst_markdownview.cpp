#include "ui/chat/codeblockview.h"
#include "ui/chat/markdownsegments.h"
#include "ui/chat/markdownview.h"
#include "ui/chat/textblockview.h"

#include <QSignalSpy>
#include <QTest>

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
};

QTEST_MAIN(MarkdownViewTest)
#include "tst_markdownview.moc"
