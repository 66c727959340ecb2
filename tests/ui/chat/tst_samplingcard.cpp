#include "ui/chat/chatview.h"
#include "ui/chat/samplingcard.h"

#include "agent/session/conversationrows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

McpSamplingRequest request()
{
    const QJsonObject params = QJsonDocument::fromJson(R"({
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Name the capital of France."}},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "toolUseId": "t1",
                                          "content": [{"type": "text", "text": "Paris"}]}]}],
        "systemPrompt": "Answer in one word.",
        "maxTokens": 20,
        "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}]},
        "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]})")
                                   .object();
    return McpSamplingRequest::fromParams(u"atlas"_s, params);
}

QStringList labelTexts(const QWidget &widget)
{
    QStringList texts;
    for (const QLabel *label : widget.findChildren<QLabel *>())
        texts.append(label->text());
    return texts;
}

} // namespace

class SamplingCardTest : public QObject
{
    Q_OBJECT

private slots:
    void theCardShowsWhoAsksWhatAndWithWhichModel()
    {
        Ui::SamplingCard card(request(), u"test-model"_s);
        const QString shown = labelTexts(card).join(u'\n');
        QVERIFY2(shown.contains(u"atlas"_s), qPrintable(shown));
        QVERIFY2(shown.contains(u"claude-3-sonnet"_s), qPrintable(shown)); // the server's preference
        QVERIFY2(shown.contains(u"lookup"_s), qPrintable(shown));          // the tools it offers
        QCOMPARE(card.systemPromptEdit()->toPlainText(), u"Answer in one word."_s);
        QCOMPARE(card.messageEdit(0)->toPlainText(), u"Name the capital of France."_s);
        QVERIFY(!card.messageEdit(1)); // a tool call is shown, not edited
        QCOMPARE(card.maxTokensBox()->value(), 20);
        QCOMPARE(card.modelEdit()->text(), u"test-model"_s); // the session's, not the hint
    }

    void runningSendsTheRequestAsEdited_data()
    {
        QTest::addColumn<bool>("edit");
        QTest::newRow("unchanged: the session's model") << false;
        QTest::newRow("edited: another model, prompt, limit and message") << true;
    }

    void runningSendsTheRequestAsEdited()
    {
        QFETCH(bool, edit);
        Ui::SamplingCard card(request(), u"test-model"_s);
        QSignalSpy decided(&card, &Ui::SamplingCard::decided);
        if (edit) {
            card.systemPromptEdit()->setPlainText(u"Be brief."_s);
            card.messageEdit(0)->setPlainText(u"Name the capital of Italy."_s);
            card.maxTokensBox()->setValue(5);
            card.modelEdit()->setText(u"other-model"_s);
        }
        card.runButton()->click();
        QCOMPARE(decided.size(), 1);
        const auto decision = decided.first().first().value<McpSamplingDecision>();
        QVERIFY(decision.accepted);
        QCOMPARE(decision.model, edit ? u"other-model"_s : QString());
        QCOMPARE(decision.request.systemPrompt, edit ? u"Be brief."_s : u"Answer in one word."_s);
        QCOMPARE(decision.request.maxTokens, edit ? 5 : 20);
        QCOMPARE(decision.request.messages.first()[u"content"_s][u"text"_s].toString(),
                 edit ? u"Name the capital of Italy."_s : u"Name the capital of France."_s);
        // What was not editable goes as the server sent it.
        QCOMPARE(decision.request.messages.at(1), request().messages.at(1));
        QCOMPARE(decision.request.tools, request().tools);
        QVERIFY(card.isFinished());
        QVERIFY(!card.runButton()->isVisible());
        QVERIFY(!card.systemPromptEdit()->isEnabled());
    }

    void decliningSaysNo()
    {
        Ui::SamplingCard card(request(), u"test-model"_s);
        QSignalSpy decided(&card, &Ui::SamplingCard::decided);
        card.declineButton()->click();
        QCOMPARE(decided.size(), 1);
        QVERIFY(!decided.first().first().value<McpSamplingDecision>().accepted);
        card.runButton()->click(); // hidden and closed: nothing more
        QCOMPARE(decided.size(), 1);
    }

    void theChatShowsTheCardPassesTheDecisionOnAndDisablesASettledOne()
    {
        ConversationRows rows;
        Ui::ChatView view;
        view.setModel(&rows);
        view.resize(600, 400);
        view.show();
        QSignalSpy decided(&view, &Ui::ChatView::samplingDecided);
        view.showSampling(4, request(), u"test-model"_s);
        Ui::SamplingCard *card = view.samplingCard(4);
        QVERIFY(card);
        QVERIFY(card->isVisible());
        QVERIFY(!view.isEmptyHintVisible());
        card->runButton()->click();
        QCOMPARE(decided.size(), 1);
        QCOMPARE(decided.first().at(0).toInt(), 4);

        view.showSampling(5, request(), u"test-model"_s);
        QPointer<Ui::SamplingCard> settled = view.samplingCard(5);
        view.settleSampling(5); // the turn stopped
        QVERIFY(settled->isFinished());
        QVERIFY(!settled->modelEdit()->isEnabled());
        rows.clear(); // a new conversation takes the cards away
        QTRY_VERIFY(!settled);
    }
};

QTEST_MAIN(SamplingCardTest)
#include "tst_samplingcard.moc"
