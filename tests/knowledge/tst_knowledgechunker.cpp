#include "agent/knowledge/knowledgechunker.h"
#include "agent/knowledge/knowledgequery.h"

#include <QStringList>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// The lines startLine..endLine of text, as a chunk's text must be.
QString linesOf(const QString &text, int startLine, int endLine)
{
    return text.split(u'\n').mid(startLine - 1, endLine - startLine + 1).join(u'\n');
}

QString paragraphs(int count, int wordsEach)
{
    QStringList result;
    for (int p = 0; p < count; ++p) {
        QStringList words;
        for (int w = 0; w < wordsEach; ++w)
            words.append(u"word%1x%2"_s.arg(p).arg(w));
        result.append(words.join(u' '));
    }
    return result.join(u"\n\n"_s);
}

} // namespace

class TestKnowledgeChunker final : public QObject
{
    Q_OBJECT

private slots:
    void headingsStartNewPassages()
    {
        const QString text = u"# Install\nRun the installer.\n\n## Proxy\nSet HTTP_PROXY first.\n"_s;
        const auto chunks = KnowledgeChunker().chunk(text, KnowledgeChunker::Kind::Markdown);
        QCOMPARE(chunks.size(), 2);
        QCOMPARE(chunks[0], (KnowledgeChunk{1, 2, u"# Install\nRun the installer."_s}));
        QCOMPARE(chunks[1], (KnowledgeChunk{4, 5, u"## Proxy\nSet HTTP_PROXY first."_s}));
    }

    void aHashInPlainTextIsNoHeading()
    {
        const QString text = u"first line\n# not a heading in a script\nlast line"_s;
        const auto chunks = KnowledgeChunker().chunk(text, KnowledgeChunker::Kind::PlainText);
        QCOMPARE(chunks.size(), 1);
        QCOMPARE(chunks[0].endLine, 3);
    }

    void aFencedCodeBlockIsNotCutAtItsHeadingsOrBlankLines()
    {
        const QString text = u"Intro.\n\n```sh\n# a comment, not a heading\n\necho hi\n```\nAfter."_s;
        const auto chunks = KnowledgeChunker().chunk(text, KnowledgeChunker::Kind::Markdown);
        QCOMPARE(chunks.size(), 1);
        QCOMPARE(chunks[0], (KnowledgeChunk{1, 8, text}));
    }

    void aLongDocumentIsCutAtParagraphsIntoOverlappingWindows()
    {
        const QString text = paragraphs(40, 30); // each paragraph ~ 75 tokens
        const KnowledgeChunker chunker({200, 40});
        const auto chunks = chunker.chunk(text, KnowledgeChunker::Kind::PlainText);
        QVERIFY(chunks.size() > 5);
        QCOMPARE(chunks.first().startLine, 1);
        QCOMPARE(chunks.last().endLine, int(text.count(u'\n')) + 1);
        for (qsizetype i = 0; i < chunks.size(); ++i) {
            const KnowledgeChunk &chunk = chunks[i];
            QCOMPARE(chunk.text, linesOf(text, chunk.startLine, chunk.endLine));
            QVERIFY2(KnowledgeChunker::estimateTokens(chunk.text) <= 200, qPrintable(chunk.text.left(80)));
            // Paragraphs are whole: every passage starts at one (blank edges are trimmed).
            QVERIFY(!chunk.text.startsWith(u'\n'));
            QVERIFY(chunk.text.startsWith(u"word"_s) && chunk.text.section(u' ', 0, 0).endsWith(u"x0"_s));
            if (i > 0) // nothing between two passages is lost
                QVERIFY(chunk.startLine <= chunks[i - 1].endLine + 2);
        }
    }

    void aBlockLargerThanTheWindowIsCutWithOverlap()
    {
        QStringList lines;
        for (int i = 1; i <= 100; ++i)
            lines.append(u"line number %1 of one long paragraph"_s.arg(i)); // ~10 tokens each
        const QString text = lines.join(u'\n');
        const auto chunks = KnowledgeChunker({100, 25}).chunk(text, KnowledgeChunker::Kind::PlainText);
        QVERIFY(chunks.size() >= 10);
        for (qsizetype i = 1; i < chunks.size(); ++i) {
            QVERIFY2(chunks[i].startLine <= chunks[i - 1].endLine, "consecutive passages overlap");
            QVERIFY(chunks[i].startLine > chunks[i - 1].startLine);
            QCOMPARE(chunks[i].text, linesOf(text, chunks[i].startLine, chunks[i].endLine));
        }
        QCOMPARE(chunks.last().endLine, 100);
    }

    void aLineLongerThanTheWindowIsSplitIntoPieces()
    {
        const QString line(2000, u'x');
        const auto chunks
            = KnowledgeChunker({100, 10}).chunk(u"before\n\n"_s + line, KnowledgeChunker::Kind::PlainText);
        QCOMPARE(chunks.size(), 6);
        QCOMPARE(chunks[0], (KnowledgeChunk{1, 1, u"before"_s}));
        for (qsizetype i = 1; i < chunks.size(); ++i) {
            QCOMPARE(chunks[i].startLine, 3);
            QCOMPARE(chunks[i].text.size(), 400);
        }
    }

    void blankTextGivesNoPassages()
    {
        QVERIFY(KnowledgeChunker().chunk(QString(), KnowledgeChunker::Kind::Markdown).isEmpty());
        QVERIFY(KnowledgeChunker().chunk(u"\n \n\t\n"_s, KnowledgeChunker::Kind::PlainText).isEmpty());
    }

    void windowsEndingInCrLfKeepTheirLines()
    {
        const auto chunks = KnowledgeChunker().chunk(u"# A\r\none\r\n\r\n# B\r\ntwo\r\n"_s,
                                                     KnowledgeChunker::Kind::Markdown);
        QCOMPARE(chunks.size(), 2);
        QCOMPARE(chunks[1], (KnowledgeChunk{4, 5, u"# B\ntwo"_s}));
    }

    void questionsBecomeOredQuotedTerms_data()
    {
        QTest::addColumn<QString>("question");
        QTest::addColumn<QString>("expression");
        QTest::newRow("stop words and punctuation are dropped")
            << u"How do I configure the proxy?"_s << u"\"configure\" OR \"proxy\""_s;
        QTest::newRow("a lone quote is a plain character") << u"proxy \"port"_s << u"\"proxy\" OR \"port\""_s;
        QTest::newRow("a star is no prefix query") << u"prox* settings"_s << u"\"prox\" OR \"settings\""_s;
        QTest::newRow("NEAR, AND, NOT are words")
            << u"NEAR(proxy AND NOT cache)"_s << u"\"near\" OR \"proxy\" OR \"not\" OR \"cache\""_s;
        QTest::newRow("unbalanced parentheses") << u"((proxy) port"_s << u"\"proxy\" OR \"port\""_s;
        QTest::newRow("a column filter is text")
            << u"text:proxy ^start"_s << u"\"text\" OR \"proxy\" OR \"start\""_s;
        QTest::newRow("repeated words count once") << u"Proxy proxy PROXY"_s << u"\"proxy\""_s;
        QTest::newRow("only stop words are still searched")
            << u"what is it"_s << u"\"what\" OR \"is\" OR \"it\""_s;
        QTest::newRow("accented and non-Latin words are kept")
            << u"Größe über 東京"_s << u"\"größe\" OR \"über\" OR \"東京\""_s;
        QTest::newRow("punctuation only gives nothing") << u"?! -- ()"_s << QString();
    }

    void questionsBecomeOredQuotedTerms()
    {
        QFETCH(QString, question);
        QFETCH(QString, expression);
        QCOMPARE(KnowledgeQuery::matchExpression(question), expression);
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeChunker)
#include "tst_knowledgechunker.moc"
