#include "agent/conversation/attachmentloader.h"
#include "agent/providers/anthropicprotocol.h"
#include "agent/providers/attachmentparts.h"
#include "agent/session/contextgauge.h"
#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/jsontreeview.h"
#include "ui/trace/retrievalview.h"
#include "ui/trace/tracedetailspane.h"

#include <QAction>
#include <QBuffer>
#include <QClipboard>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTreeWidget>

Q_DECLARE_METATYPE(Loopscope::WaitData)

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString LeakedKey = u"sk-live-0123456789abcdef"_s;

QStringList highlightedTexts(const QPlainTextEdit *view)
{
    QStringList texts;
    for (const QTextEdit::ExtraSelection &selection : view->extraSelections())
        texts.append(selection.cursor.selectedText());
    return texts;
}

QTreeWidgetItem *childNamed(QTreeWidgetItem *parent, const QString &key)
{
    for (int i = 0; i < parent->childCount(); ++i) {
        if (parent->child(i)->text(Ui::JsonTreeView::KeyColumn) == key)
            return parent->child(i);
    }
    return nullptr;
}

// The text of the pane's label with \a accessibleName.
QString labelText(const Ui::TraceDetailsPane &pane, const QString &accessibleName)
{
    for (QLabel *label : pane.findChildren<QLabel *>()) {
        if (label->accessibleName() == accessibleName)
            return label->text();
    }
    return u"<no label>"_s;
}

QStringList childKeys(QTreeWidgetItem *parent)
{
    QStringList keys;
    for (int i = 0; i < parent->childCount(); ++i)
        keys.append(parent->child(i)->text(Ui::JsonTreeView::KeyColumn));
    return keys;
}

} // namespace

class TraceDetailsPaneTest : public QObject
{
    Q_OBJECT

private slots:
    void init() { QGuiApplication::clipboard()->clear(); }

    void withoutASelectionThePaneSaysWhatToDoInsteadOfShowingEmptyViews()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace, {});
        Ui::TraceDetailsPane pane(&model);
        pane.show();
        const auto *tabs = pane.findChild<QTabWidget *>();
        QVERIFY(tabs);
        QVERIFY(!tabs->isVisible());
        const QList<QLabel *> labels = pane.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *label) {
            return label->isVisible() && label->text().startsWith(u"Select a step in the trace"_s);
        }));

        pane.setNode(s.modelCall);
        QTRY_VERIFY(tabs->isVisible());
        pane.setNode(-1);
        QTRY_VERIFY(!tabs->isVisible());
    }

    void inATallPaneTheTitleAndWhatToDoStayTogetherAtTheTop()
    {
        Trace trace;
        TraceModel model(&trace);
        Ui::TraceDetailsPane pane(&model);
        pane.resize(500, 700);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QList<QLabel *> labels = pane.findChildren<QLabel *>();
        const auto visibleLabel = [&labels](const QString &start) -> QLabel * {
            const auto found = std::find_if(labels.cbegin(), labels.cend(), [&start](const QLabel *label) {
                return label->isVisible() && label->text().startsWith(start);
            });
            return found == labels.cend() ? nullptr : *found;
        };
        QLabel *title = visibleLabel(u"No step selected"_s);
        QLabel *hint = visibleLabel(u"Select a step in the trace"_s);
        QVERIFY(title);
        QVERIFY(hint);
        // Both in the pane's first lines, not one in the middle and the other at the bottom.
        const int lines = 6 * pane.fontMetrics().lineSpacing();
        QTRY_VERIFY2(
            hint->geometry().bottom() < lines,
            qPrintable(u"the hint ends at %1 px of %2"_s.arg(hint->geometry().bottom()).arg(pane.height())));
        QVERIFY(title->geometry().top() < hint->geometry().top());
    }

    void aModelCallIsShownAsJsonWithItsKeyRedacted_data()
    {
        QTest::addColumn<QString>("recordedAuthorization");
        QTest::newRow("a recording redacted by the client") << u"[redacted]"_s;
        QTest::newRow("a recording that missed its redaction") << u"Bearer "_s + LeakedKey;
    }

    void aModelCallIsShownAsJsonWithItsKeyRedacted()
    {
        QFETCH(QString, recordedAuthorization);
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace, recordedAuthorization);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(s.modelCall);

        const QString text = pane.textView()->toPlainText();
        QCOMPARE(text, pane.jsonText());
        QVERIFY(!text.contains(LeakedKey));
        QCOMPARE(text.count(u"\"Authorization\": \"[redacted]\""_s), 2); // one per attempt
        QVERIFY(text.contains(TraceSamples::UserText));                  // the body echoes the message
        QVERIFY(text.contains(u"\"kind\": \"model_call\""_s));
        QVERIFY(text.contains(u"    \"data\": {"_s)); // pretty-printed, not one long line
        const QJsonDocument parsed = QJsonDocument::fromJson(text.toUtf8());
        QCOMPARE(parsed.object().value(u"id"_s).toInt(), s.modelCall);
    }

    void theHeaderShowsStatusTimingTokensAndAttempts()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(s.modelCall);

        const auto label = [&pane](const QString &accessibleName) {
            for (QLabel *l : pane.findChildren<QLabel *>()) {
                if (l->accessibleName() == accessibleName)
                    return l->text();
            }
            return u"<no label>"_s;
        };
        QVERIFY(label(u"Step"_s).contains(u"chat gpt-4o-mini"_s));
        QCOMPARE(label(u"Status"_s), TraceModel::statusDisplayName(TraceStatus::Ok));
        const QString facts = label(u"Timing and tokens"_s);
        QVERIFY2(facts.contains(TraceModel::formatDuration(990'000)), qPrintable(facts));
        QVERIFY2(facts.contains(QLocale().toString(1234)), qPrintable(facts));

        QTreeWidget *attempts = pane.attemptsView();
        QVERIFY(!attempts->isHidden());
        QCOMPARE(attempts->topLevelItemCount(), 2);
        QCOMPARE(attempts->topLevelItem(0)->text(1), u"429"_s);
        QVERIFY(attempts->topLevelItem(0)->text(3).contains(u"Too Many Requests"_s));
        QVERIFY(attempts->topLevelItem(0)->text(3).contains(TraceModel::formatDuration(300'000)));
        QCOMPARE(attempts->topLevelItem(1)->text(1), u"200"_s);

        pane.setNode(s.readFile);
        QVERIFY(attempts->isHidden());
        QVERIFY(label(u"Timing and tokens"_s).contains(u"read_file"_s));
    }

    void theHeaderSplitsAStepsTimeIntoWorkingAndWaiting()
    {
        using TraceSamples::Ms;
        using TraceSamples::T0;
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const int iteration = trace.begin(turn, TraceKind::Iteration, u"i"_s, T0, IterationData{1, 10});
        const int wait = trace.begin(iteration, TraceKind::Wait, u"Paused at a breakpoint"_s, T0,
                                     WaitData{u"breakpoint"_s, u"allowed"_s});
        trace.finish(wait, TraceStatus::Ok, T0 + 23'900 * Ms);
        trace.finish(iteration, TraceStatus::Ok, T0 + 27'000 * Ms);
        trace.finish(turn, TraceStatus::Ok, T0 + 27'000 * Ms);
        Ui::TraceDetailsPane pane(&model);
        const auto facts = [&pane] {
            for (QLabel *l : pane.findChildren<QLabel *>()) {
                if (l->accessibleName() == u"Timing and tokens"_s)
                    return l->text();
            }
            return u"<no label>"_s;
        };

        pane.setNode(iteration);
        const QString split = TraceModel::formatSpan(27'000 * Ms) + u" ("_s
                              + TraceModel::formatSpan(3'100 * Ms) + u" working, "_s
                              + TraceModel::formatSpan(23'900 * Ms) + u" waiting for you)"_s;
        QVERIFY2(facts().contains(split), qPrintable(facts()));

        pane.setNode(wait);
        QVERIFY2(facts().contains(u"took "_s + TraceModel::formatDuration(23'900 * Ms)), qPrintable(facts()));
        QVERIFY2(!facts().contains(u"working"_s), qPrintable(facts()));
    }

    void aCompactionSaysWhatItSavedAndShowsWhatItReplaced()
    {
        using TraceSamples::T0;
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const QJsonObject stub{{u"role"_s, u"tool"_s},
                               {u"toolCallId"_s, u"call_7"_s},
                               {u"tokens"_s, 4100},
                               {u"replacement"_s, u"[This result of read_file (call call_7) was removed]"_s}};
        const int compaction
            = trace.begin(turn, TraceKind::Compaction, u"Compaction: 41,000 → 6,000 tokens"_s, T0,
                          CompactionData{u"trim-tool-results"_s, 50'000, 41'000, 6'000,
                                         QJsonObject{{u"replaced"_s, QJsonArray{stub}}}});
        trace.finish(compaction, TraceStatus::Ok, T0 + 10);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(compaction);

        const QLocale locale;
        QString facts;
        for (QLabel *l : pane.findChildren<QLabel *>()) {
            if (l->accessibleName() == u"Timing and tokens"_s)
                facts = l->text();
        }
        QVERIFY2(facts.contains(u"%1 → %2 tokens of a %3-token window"_s.arg(
                     locale.toString(41'000), locale.toString(6'000), locale.toString(50'000))),
                 qPrintable(facts));
        // What was replaced, and by what, is in the step's own tab, never hidden.
        QVERIFY2(pane.jsonText().contains(u"call_7"_s) && pane.jsonText().contains(u"was removed"_s),
                 qPrintable(pane.jsonText()));
    }

    // A label that names its kind already is not repeated after it: "Compaction: Compaction: …".
    void theTitleNamesTheKindOnce_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("title");
        QTest::newRow("a compaction") << int(TraceKind::Compaction) << u"Compaction: 41,000 → 6,000 tokens"_s
                                      << u"Compaction: 41,000 → 6,000 tokens"_s;
        QTest::newRow("a reflection") << int(TraceKind::Reflection) << u"Reflection"_s << u"Reflection"_s;
        QTest::newRow("a model call")
            << int(TraceKind::ModelCall) << u"chat gpt-4o-mini"_s
            << TraceModel::kindDisplayName(TraceKind::ModelCall) + u": chat gpt-4o-mini"_s;
    }

    void theTitleNamesTheKindOnce()
    {
        QFETCH(int, kind);
        QFETCH(QString, label);
        QFETCH(QString, title);
        Trace trace;
        TraceModel model(&trace);
        TracePayload payload = TextData{};
        if (TraceKind(kind) == TraceKind::Compaction)
            payload = CompactionData{u"trim-tool-results"_s, 50'000, 41'000, 6'000, {}};
        else if (TraceKind(kind) == TraceKind::ModelCall)
            payload = TraceSamples::modelCallData();
        const int node = trace.begin(-1, TraceKind(kind), label, TraceSamples::T0, payload);
        trace.finish(node, TraceStatus::Ok, TraceSamples::T0 + 10);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(node);

        QCOMPARE(labelText(pane, u"Step"_s), title);
    }

    // Ollama keeps its default window unless told: the call says which num_ctx went with it, from
    // the body as sent.
    void aModelCallToOllamaSaysWhichNumCtxWasSent()
    {
        ModelCallData data = TraceSamples::modelCallData();
        data.provider = u"ollama"_s;
        data.request = [&data] {
            ModelRequest request = data.request.whole();
            request.options.contextWindow = 8'192;
            return request;
        }();
        for (ModelAttempt &attempt : data.attempts) {
            QJsonObject body = attempt.request.value(u"body"_s).toObject();
            body.insert(u"options"_s, QJsonObject{{u"num_ctx"_s, 8'192}});
            attempt.request.insert(u"body"_s, body);
        }
        Trace trace;
        TraceModel model(&trace);
        const int ollama
            = trace.begin(-1, TraceKind::ModelCall, u"chat qwen2.5:7b"_s, TraceSamples::T0, data);
        const int openAi = trace.begin(-1, TraceKind::ModelCall, u"chat"_s, TraceSamples::T0,
                                       TraceSamples::modelCallData());
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(ollama);
        const QString facts = labelText(pane, u"Timing and tokens"_s);
        QVERIFY2(facts.contains(
                     u"context window %1 tokens (num_ctx sent to Ollama)"_s.arg(QLocale().toString(8'192))),
                 qPrintable(facts));
        // The request's tokens against the window it was fitted into.
        QVERIFY2(facts.contains(u"context "_s + ContextGauge::describe(1'200, 8'192)), qPrintable(facts));

        pane.setNode(openAi);
        QVERIFY2(!labelText(pane, u"Timing and tokens"_s).contains(u"num_ctx"_s),
                 qPrintable(labelText(pane, u"Timing and tokens"_s)));
    }

    void theHeaderShowsTheCostAndTheContextWindowFilled()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        trace.update(s.modelCall, [](TraceNode &node) {
            PriceBasis basis;
            basis.inputPerMTok = 1;
            basis.contextWindow = 128'000;
            node.data<ModelCallData>().cost = ModelCost{0.0123, basis};
        });
        Ui::TraceDetailsPane pane(&model);
        const auto facts = [&pane] {
            for (QLabel *l : pane.findChildren<QLabel *>()) {
                if (l->accessibleName() == u"Timing and tokens")
                    return l->text();
            }
            return u"<no label>"_s;
        };

        pane.setNode(s.modelCall);
        QVERIFY2(facts().contains(u"cost $0.0123"_s), qPrintable(facts()));
        QVERIFY2(facts().contains(u"/ 128k tokens"_s), qPrintable(facts()));
        // The turn and its iteration cost what their calls cost.
        pane.setNode(s.turn);
        QVERIFY2(facts().contains(u"cost $0.0123"_s), qPrintable(facts()));
        pane.setNode(s.iteration);
        QVERIFY2(facts().contains(u"cost $0.0123"_s), qPrintable(facts()));
        pane.setNode(s.readFile);
        QVERIFY2(!facts().contains(u"cost"_s), qPrintable(facts()));
    }

    void searchHighlightsEveryMatch_data()
    {
        QTest::addColumn<QString>("needle");
        QTest::addColumn<int>("matches");
        // The message appears in both attempts' bodies and in the provider-neutral request.
        QTest::newRow("a word of the message") << u"quarterly"_s << 3;
        QTest::newRow("the same word in capitals") << u"QUARTERLY"_s << 3;
        QTest::newRow("the redaction mask") << u"[redacted]"_s << 2;
        QTest::newRow("a word that is not there") << u"kangaroo"_s << 0;
    }

    void searchHighlightsEveryMatch()
    {
        QFETCH(QString, needle);
        QFETCH(int, matches);
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));

        QTest::keyClicks(pane.searchField(), needle);

        QCOMPARE(pane.matchCount(), matches);
        const QStringList highlighted = highlightedTexts(pane.textView());
        QCOMPARE(highlighted.size(), matches);
        for (const QString &text : highlighted)
            QCOMPARE(text.toLower(), needle.toLower());
        QCOMPARE(pane.currentMatch(), matches > 0 ? 0 : -1);
        QCOMPARE(pane.copyJsonAction()->isEnabled(), true);
    }

    void nextAndPreviousWalkThroughTheMatchesAndWrapAround()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);
        pane.show();
        QVERIFY(QTest::qWaitForWindowActive(&pane));
        pane.searchField()->setText(u"quarterly"_s);
        QCOMPARE(pane.matchCount(), 3);

        const auto cursorAt = [&pane] {
            return pane.textView()->textCursor().position();
        };
        const int first = cursorAt();
        QTest::keyClick(pane.searchField(), Qt::Key_Return);
        QCOMPARE(pane.currentMatch(), 1);
        QVERIFY(cursorAt() > first);
        pane.findNext();
        pane.findNext();
        QCOMPARE(pane.currentMatch(), 0); // wrapped
        QCOMPARE(cursorAt(), first);
        pane.searchField()->setFocus();
        QTest::keyClick(pane.searchField(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(pane.currentMatch(), 2); // backwards, wrapped
        pane.findPrevious();
        QCOMPARE(pane.currentMatch(), 1);
        // The current match is drawn last, in the selection colours.
        const QTextEdit::ExtraSelection current = pane.textView()->extraSelections().constLast();
        QCOMPARE(current.cursor.selectionStart(), cursorAt());
        QCOMPARE(current.format.background().color(), pane.palette().color(QPalette::Highlight));
    }

    void copyAsJsonCopiesWhatIsShown()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.runShell);

        pane.copyJsonAction()->trigger();

        QCOMPARE(QGuiApplication::clipboard()->text(), pane.textView()->toPlainText());
        QVERIFY(QGuiApplication::clipboard()->text().contains(u"permission denied"_s));
    }

    void copyAsCurlIsOfferedForModelCallsAndNeverCarriesAKey()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace, u"Bearer "_s + LeakedKey);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(s.readFile);
        QVERIFY(!pane.copyCurlAction()->isEnabled());
        pane.setNode(s.modelCall);
        QVERIFY(pane.copyCurlAction()->isEnabled());

        pane.copyCurlAction()->trigger();

        const QString command = QGuiApplication::clipboard()->text();
        QVERIFY(command.startsWith(u"curl '"_s + TraceSamples::Url + u"' \\\n"_s));
        QVERIFY(command.contains(u"--header 'Authorization: [redacted]'"_s));
        QVERIFY(command.contains(u"it'\\''s due Friday"_s));
        QVERIFY(!command.contains(LeakedKey));
        QCOMPARE(command, pane.curlText());
    }

    void aBodyRecordedByReferenceIsRebuiltForTheViewsAndCurl()
    {
        // What HttpModelClient records: the attempt's body is the encoding of the call's request.
        ModelCallData data = TraceSamples::modelCallData();
        for (ModelAttempt &attempt : data.attempts) {
            attempt.request.remove(u"body"_s);
            attempt.request.insert(u"bodyFrom"_s, u"request"_s);
        }
        Trace trace;
        TraceModel model(&trace);
        const int call = trace.begin(-1, TraceKind::ModelCall, u"chat"_s, TraceSamples::T0, data);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(call);

        QVERIFY(pane.copyCurlAction()->isEnabled());
        QVERIFY2(pane.curlText().contains(u"it'\\''s due Friday"_s), qPrintable(pane.curlText()));
        QVERIFY(pane.curlText().contains(u"\"model\":\"gpt-4o-mini\""_s));
    }

    void anAttachmentShowsAsWhatItIsWhileRawAndCurlKeepTheExactRequest()
    {
        const auto png = [](QSize size) {
            QImage image(size, QImage::Format_RGB32);
            image.fill(Qt::darkGreen);
            QByteArray bytes;
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            image.save(&buffer, "png");
            return bytes;
        };
        const Attachment small = *AttachmentLoader::fromBytes(u"small.png"_s, png(QSize(40, 30))).attachment;
        const Attachment wide = *AttachmentLoader::fromBytes(u"wide.png"_s, png(QSize(8400, 420))).attachment;
        const Attachment notes
            = *AttachmentLoader::fromBytes(u"notes.md"_s, "# Notes\nShip on Friday.\n").attachment;
        const auto scaled = AttachmentParts::image(wide, AnthropicProtocol::images());
        QVERIFY(scaled->scaled);

        // As HttpModelClient records a call to Anthropic: the body by reference, the scaled image named.
        ModelCallData data = TraceSamples::modelCallData();
        data.provider = u"anthropic"_s;
        ModelRequest request;
        request.messages = {Message::user(u"Compare them"_s, {small, wide, notes})};
        request.options.model = u"claude-test"_s;
        data.request = request;
        for (ModelAttempt &attempt : data.attempts) {
            attempt.request.remove(u"body"_s);
            attempt.request.insert(u"bodyFrom"_s, u"request"_s);
            attempt.request.insert(u"scaledImages"_s, QJsonArray{scaled->scaledRecord(wide)});
        }
        Trace trace;
        TraceModel model(&trace);
        const int call = trace.begin(-1, TraceKind::ModelCall, u"chat"_s, TraceSamples::T0, data);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(call);

        const QByteArray shown
            = QJsonDocument(pane.requestView()->json().toObject()).toJson(QJsonDocument::Compact);
        QVERIFY2(shown.size() < 4000, shown.left(500).constData()); // no base64, no whole file
        QVERIFY(!shown.contains(small.bytes.toBase64().left(100)));
        QVERIFY(!shown.contains(scaled->base64.left(100)));
        const QJsonArray blocks = pane.requestView()
                                      ->json()
                                      .toObject()
                                      .value(u"messages"_s)
                                      .toArray()
                                      .at(0)
                                      .toObject()
                                      .value(u"content"_s)
                                      .toArray();
        QCOMPARE(blocks.size(), 4);
        const QJsonObject first
            = blocks.at(0).toObject().value(u"source"_s).toObject().value(u"data"_s).toObject();
        QCOMPARE(first.value(u"attachment"_s).toString(), u"small.png"_s);
        QCOMPARE(first.value(u"type"_s).toString(), u"image/png"_s);
        QCOMPARE(first.value(u"pixels"_s).toString(), u"40×30"_s);
        QCOMPARE(first.value(u"sha256"_s).toString(), QString::fromLatin1(small.sha256));
        QCOMPARE(first.value(u"scaled"_s), QJsonValue(false));
        const QJsonObject second
            = blocks.at(1).toObject().value(u"source"_s).toObject().value(u"data"_s).toObject();
        QCOMPARE(second.value(u"attachment"_s).toString(), u"wide.png"_s);
        QCOMPARE(second.value(u"pixels"_s).toString(), u"8000×400"_s);
        QVERIFY2(second.value(u"scaled"_s).toString().startsWith(u"from 8400×420 image/png"_s),
                 qPrintable(second.value(u"scaled"_s).toString()));
        const QJsonObject third = blocks.at(2).toObject().value(u"text"_s).toObject();
        QCOMPARE(third.value(u"attachment"_s).toString(), u"notes.md"_s);
        QCOMPARE(third.value(u"type"_s).toString(), u"text/markdown"_s);
        QCOMPARE(third.value(u"sha256"_s).toString(), QString::fromLatin1(notes.sha256));
        QCOMPARE(blocks.at(3).toObject().value(u"text"_s).toString(), u"Compare them"_s);

        // Raw and Copy as curl still carry the request as it was sent, the bytes included.
        pane.showAllRawText();
        QVERIFY(pane.jsonText().contains(QString::fromLatin1(small.bytes.toBase64())));
        QVERIFY(pane.jsonText().contains(QString::fromLatin1(scaled->base64)));
        QVERIFY(pane.curlText().contains(QString::fromLatin1(scaled->base64)));
        QVERIFY(pane.curlText().contains(u"Ship on Friday."_s));
    }

    void aToolsImageShowsAsWhatItIsInTheStepWhileRawKeepsIt()
    {
        QImage image(QSize(24, 16), QImage::Format_RGB32);
        image.fill(Qt::darkGreen);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "png");
        const Attachment logo = *AttachmentLoader::fromBytes(u"get-tiny-image-1.png"_s, png).attachment;
        // As the loop records a call whose MCP server answered with an image.
        ToolCallData data = TraceSamples::toolCallData(u"get-tiny-image"_s, u"{}"_s);
        data.result = u"Here's the image you requested:"_s;
        data.details.insert(u"attachments"_s, QJsonArray{logo.toJson()});
        Trace trace;
        TraceModel model(&trace);
        const int call = trace.begin(-1, TraceKind::ToolCall, u"get-tiny-image"_s, TraceSamples::T0, data);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(call);

        const QJsonObject shown = pane.stepView()->json().toObject();
        QVERIFY(!QJsonDocument(shown).toJson().contains(png.toBase64().left(60)));
        const QJsonObject described
            = shown[u"data"_s][u"details"_s][u"attachments"_s][0][u"data"_s].toObject();
        QCOMPARE(described.value(u"attachment"_s).toString(), u"get-tiny-image-1.png"_s);
        QCOMPARE(described.value(u"type"_s).toString(), u"image/png"_s);
        QCOMPARE(described.value(u"pixels"_s).toString(), u"24×16"_s);
        QCOMPARE(described.value(u"sha256"_s).toString(), QString::fromLatin1(logo.sha256));
        pane.showAllRawText();
        QVERIFY(pane.jsonText().contains(QString::fromLatin1(png.toBase64())));
    }

    void theDetailsFollowARunningStep()
    {
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, TraceSamples::T0, TurnData{});
        const int call = trace.begin(turn, TraceKind::ToolCall, u"read_file"_s, TraceSamples::T0,
                                     TraceSamples::toolCallData(u"read_file"_s, u"{}"_s));
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(call);
        QVERIFY(!pane.textView()->toPlainText().contains(u"Q3 revenue"_s));

        trace.update(call, [](TraceNode &node) { node.data<ToolCallData>().result = u"Q3 revenue rose"_s; });
        trace.finish(call, TraceStatus::Ok, TraceSamples::T0 + 5000);

        QTRY_VERIFY(pane.textView()->toPlainText().contains(u"Q3 revenue rose"_s));
        QVERIFY(pane.textView()->toPlainText().contains(u"\"status\": \"ok\""_s));
    }

    void anApprovalShowsItsDecisionAndWhatTheUserSaw_data()
    {
        QTest::addColumn<WaitData>("wait");
        QTest::addColumn<QString>("fact");
        QTest::addColumn<bool>("shownTab");

        QTest::newRow("always within a scope, edited")
            << WaitData{u"approval"_s, u"allowed"_s, u"command git"_s, u"command: git status"_s, true}
            << u"allowed always (command git), arguments edited"_s << true;
        QTest::newRow("once") << WaitData{u"approval"_s, u"allowed"_s, u"once"_s, u"@@ -0,0 +1 @@\n+x"_s,
                                          false}
                              << u"allowed once"_s << true;
        QTest::newRow("an older trace, without a preview")
            << WaitData{u"approval"_s, u"denied"_s, {}, {}, false} << u"denied"_s << false;
        QTest::newRow("an MCP server's question answered")
            << WaitData{u"answer"_s, u"accepted"_s, {}, {}, false} << u"you answered the server's question"_s
            << false;
        QTest::newRow("an MCP server's question declined")
            << WaitData{u"answer"_s, u"declined"_s, {}, {}, false}
            << u"you declined to answer the server's question"_s << false;
        QTest::newRow("an MCP server's question cancelled")
            << WaitData{u"answer"_s, u"cancelled"_s, {}, {}, false}
            << u"the server's question was cancelled unanswered"_s << false;
        QTest::newRow("a result given by hand")
            << WaitData{u"breakpoint"_s, u"manual result"_s, {}, {}, false}
            << u"you gave the result instead of running the tool"_s << false;
    }
    void anApprovalShowsItsDecisionAndWhatTheUserSaw()
    {
        QFETCH(WaitData, wait);
        QFETCH(QString, fact);
        QFETCH(bool, shownTab);
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, TraceSamples::T0, TurnData{});
        const int call = trace.begin(turn, TraceKind::ToolCall, u"run_command"_s, TraceSamples::T0,
                                     TraceSamples::toolCallData(u"run_command"_s, u"{}"_s));
        const int held
            = trace.begin(call, TraceKind::Wait, u"Waiting for your approval"_s, TraceSamples::T0, wait);
        trace.finish(held, TraceStatus::Ok, TraceSamples::T0 + 1000);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(held);

        const auto labels = pane.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(),
                            [&](const QLabel *label) { return label->text().endsWith(fact); }));
        QCOMPARE(pane.tabs()->isTabVisible(Ui::TraceDetailsPane::ShownTab), shownTab);
        if (shownTab) {
            QCOMPARE(pane.tabs()->currentIndex(), int(Ui::TraceDetailsPane::ShownTab));
            QCOMPARE(pane.shownView()->toPlainText(), wait.preview);
        }
    }

    void aRetrievalOpensOnItsPassagesAndAClickOnAFileOpensItAtItsLine()
    {
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, TraceSamples::T0, TurnData{});
        const int call = trace.begin(turn, TraceKind::ToolCall, u"knowledge_search"_s, TraceSamples::T0,
                                     TraceSamples::toolCallData(u"knowledge_search"_s, u"{}"_s));
        const RetrievalData retrieval{
            u"who approves refunds"_s,
            {u"policies"_s, u"manual"_s},
            {},
            5,
            {RetrievalHit{u"policies"_s,
                          u"/docs/policies/refunds.md"_s,
                          3,
                          9,
                          2.5,
                          {},
                          {},
                          u"Refunds above 500 euros are approved by the finance lead."_s},
             RetrievalHit{u"manual"_s, u"/docs/manual/<faq>.md"_s, 12, 12, 1.25, 0.75, 0.03125,
                          u"Ask <b>the office</b>."_s},
             RetrievalHit{u"manual"_s, u"/docs/manual/guide.pdf"_s, 1, 30, 0.5, {}, {}, u"Forms."_s, 4}},
            0,
            900,
            {}};
        const int search = trace.begin(call, TraceKind::Retrieval, u"search"_s, TraceSamples::T0, retrieval);
        trace.finish(search, TraceStatus::Ok, TraceSamples::T0 + 900);
        Ui::TraceDetailsPane pane(&model);
        QList<std::pair<QString, int>> opened;
        pane.passagesView()->setOpener([&opened](const RetrievalHit &hit) {
            opened.append({hit.path, hit.startLine});
        });
        pane.resize(700, 600);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));

        pane.setNode(search);
        QCOMPARE(pane.tabs()->currentIndex(), int(Ui::TraceDetailsPane::PassagesTab));
        QVERIFY(pane.tabs()->isTabVisible(Ui::TraceDetailsPane::RawTab));
        const auto labels = pane.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *label) {
            return label->text().endsWith(u"knowledge bases policies, manual · searching 0.9 ms"_s);
        }));
        // Best first, each with its place, base, scores and text, markup shown as it is written.
        const QString text = pane.passagesView()->toPlainText();
        QVERIFY2(text.contains(u"1. refunds.md, lines 3–9\nknowledge base policies · BM25 2.5\n"
                               "Refunds above 500 euros are approved by the finance lead."_s),
                 qPrintable(text));
        QVERIFY2(text.contains(u"2. <faq>.md, line 12\nknowledge base manual · BM25 1.25 · cosine 0.75 · "
                               "fused 0.0313\nAsk <b>the office</b>."_s),
                 qPrintable(text));
        // A PDF's passage says its page.
        QVERIFY2(text.contains(u"3. guide.pdf, p. 4\nknowledge base manual · BM25 0.5\nForms."_s),
                 qPrintable(text));

        // A click on the second passage's file opens it at its line.
        const QTextCursor link = pane.passagesView()->document()->find(u"<faq>.md, line 12"_s);
        QVERIFY(!link.isNull());
        QTextCursor middle(pane.passagesView()->document());
        middle.setPosition((link.selectionStart() + link.selectionEnd()) / 2);
        const QPoint at = pane.passagesView()->cursorRect(middle).center();
        QTest::mouseClick(pane.passagesView()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(opened, (QList<std::pair<QString, int>>{{u"/docs/manual/<faq>.md"_s, 12}}));
    }

    void aSearchSurvivesTheStepChanging()
    {
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, TraceSamples::T0, TurnData{});
        const int call = trace.begin(turn, TraceKind::ToolCall, u"read_file"_s, TraceSamples::T0,
                                     TraceSamples::toolCallData(u"read_file"_s, u"{}"_s));
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(call);
        pane.searchField()->setText(u"read_file"_s);
        const int before = pane.matchCount();
        QVERIFY(before > 0);

        trace.update(call, [](TraceNode &node) { node.data<ToolCallData>().result = u"read_file done"_s; });

        QTRY_COMPARE(pane.matchCount(), before + 1);
        QCOMPARE(highlightedTexts(pane.textView()).size(), before + 1);
    }

    void clearingTheTraceClearsTheDetails()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);

        trace.clear();

        QCOMPARE(pane.node(), -1);
        QVERIFY(pane.textView()->toPlainText().isEmpty());
        QVERIFY(!pane.copyJsonAction()->isEnabled());
        QVERIFY(!pane.copyCurlAction()->isEnabled());
    }

    void aModelCallOpensOnRequestResponseAndRawTabs_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<QStringList>("visibleTabs");
        QTest::addColumn<int>("current");
        QTest::newRow("a model call") << u"modelCall"_s << QStringList{u"Request"_s, u"Response"_s, u"Raw"_s}
                                      << int(Ui::TraceDetailsPane::RequestTab);
        QTest::newRow("a tool call") << u"readFile"_s << QStringList{u"Step"_s, u"Raw"_s}
                                     << int(Ui::TraceDetailsPane::StepTab);
    }

    void aModelCallOpensOnRequestResponseAndRawTabs()
    {
        QFETCH(QString, step);
        QFETCH(QStringList, visibleTabs);
        QFETCH(int, current);
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);

        pane.setNode(step == u"modelCall"_s ? s.modelCall : s.readFile);

        QStringList shown;
        for (int i = 0; i < pane.tabs()->count(); ++i) {
            if (pane.tabs()->isTabVisible(i))
                shown.append(pane.tabs()->tabText(i).remove(u'&'));
        }
        QCOMPARE(shown, visibleTabs);
        QCOMPARE(pane.tabs()->currentIndex(), current);
        QCOMPARE(pane.textView()->toPlainText(), pane.jsonText()); // Raw: the whole node as before
    }

    void theRequestTabShowsTheBodyKeysInTheOrderTheyWentOverTheWire()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);

        // HttpModelClient posts QJsonDocument(body).toJson(Compact): the order on the wire.
        const QJsonObject body = TraceSamples::wireRequest().value(u"body"_s).toObject();
        const QByteArray wire = QJsonDocument(body).toJson(QJsonDocument::Compact);
        QStringList wireOrder = body.keys();
        std::sort(wireOrder.begin(), wireOrder.end(), [&wire](const QString &a, const QString &b) {
            return wire.indexOf(QByteArray('"' + a.toUtf8() + "\":"))
                   < wire.indexOf(QByteArray('"' + b.toUtf8() + "\":"));
        });
        QCOMPARE(childKeys(pane.requestView()->invisibleRootItem()), wireOrder);

        // The top two levels are open; a message's own fields are folded away.
        QTreeWidgetItem *messages = childNamed(pane.requestView()->invisibleRootItem(), u"messages"_s);
        QVERIFY(messages);
        QVERIFY(messages->isExpanded());
        QCOMPARE(messages->text(Ui::JsonTreeView::ValueColumn), u"[1 item]"_s);
        QVERIFY(!messages->child(0)->isExpanded());
        // Folded rows are made when opened.
        QCOMPARE(messages->child(0)->childCount(), 0);
        QCOMPARE(messages->child(0)->childIndicatorPolicy(), QTreeWidgetItem::ShowIndicator);
        messages->child(0)->setExpanded(true);
        QCOMPARE(childKeys(messages->child(0)), (QStringList{u"content"_s, u"role"_s}));
    }

    void aLongArrayShowsItsRowsABatchAtATime()
    {
        QJsonArray events;
        for (int i = 0; i < 1200; ++i)
            events.append(QJsonObject{{u"n"_s, i}});
        Ui::JsonTreeView view;
        view.setJson(QJsonObject{{u"events"_s, events}});
        QTreeWidgetItem *list = view.topLevelItem(0);
        QVERIFY(list->isExpanded());
        QCOMPARE(list->childCount(), 501); // 500 rows and "… 700 more"
        QCOMPARE(list->child(500)->text(Ui::JsonTreeView::KeyColumn), u"… 700 more"_s);
        list->child(500)->setExpanded(true);
        QCOMPARE(list->childCount(), 1001);
        QCOMPARE(list->child(500)->text(Ui::JsonTreeView::KeyColumn), u"[500]"_s);
        list->child(1000)->setExpanded(true);
        QCOMPARE(list->childCount(), 1200);
        QCOMPARE(list->child(1199)->text(Ui::JsonTreeView::KeyColumn), u"[1199]"_s);
    }

    void aLongStepShowsTheBeginningOfItsRawTextUntilAskedForAll()
    {
        Trace trace;
        TraceModel model(&trace);
        const QString answer = QString(u"word "_s).repeated(40'000);
        const int node = trace.begin(-1, TraceKind::Turn, u"Long"_s, 1,
                                     TurnData{u"assistant"_s, u"q"_s, answer, u"answered"_s, {}});
        trace.finish(node, TraceStatus::Ok, 2);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(node);
        QVERIFY(pane.jsonText().size() > Ui::TraceDetailsPane::RawPreviewChars);
        QVERIFY(pane.isRawTextShortened());
        QVERIFY(pane.textView()->document()->characterCount() <= Ui::TraceDetailsPane::RawPreviewChars + 1);
        QVERIFY(!pane.showAllButton()->isHidden());
        // A match past the shown text shows all of it.
        pane.searchField()->setText(u"\"endedUs\""_s);
        QCOMPARE(pane.matchCount(), 1);
        QVERIFY(!pane.isRawTextShortened());
        QCOMPARE(pane.textView()->toPlainText(), pane.jsonText());
        QVERIFY(pane.showAllButton()->isHidden());
        // The next step starts shortened again (unless a match is further on).
        pane.searchField()->clear();
        pane.setNode(-1);
        pane.setNode(node);
        QVERIFY(pane.isRawTextShortened());
        pane.showAllRawText();
        QCOMPARE(pane.textView()->toPlainText(), pane.jsonText());
    }

    void jsonValuesReadAsAPersonWouldWriteThem_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("shown");
        QTest::newRow("an empty array") << u"tools"_s << QJsonValue(QJsonArray()) << u"[]"_s;
        QTest::newRow("an empty object") << u"headers"_s << QJsonValue(QJsonObject()) << u"{}"_s;
        QTest::newRow("a string, quoted") << u"role"_s << QJsonValue(u"user"_s) << u"\"user\""_s;
        QTest::newRow("a number") << u"retryInMs"_s << QJsonValue(300) << u"300"_s;
        QTest::newRow("a boolean") << u"stream"_s << QJsonValue(true) << u"true"_s;
        QTest::newRow("null") << u"raw"_s << QJsonValue(QJsonValue::Null) << u"null"_s;
        const qint64 us = TraceSamples::T0 + 772'000;
        QTest::newRow("a time in microseconds")
            << u"startedUs"_s << QJsonValue(us)
            << QLocale().toString(QDateTime::fromMSecsSinceEpoch(us / 1000).time(), u"HH:mm:ss.zzz"_s);
        QTest::newRow("a small number ending in Us is no time")
            << u"delayUs"_s << QJsonValue(1500) << u"1500"_s;
    }

    void jsonValuesReadAsAPersonWouldWriteThem()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, shown);
        Ui::JsonTreeView view;
        view.setJson(QJsonObject{{key, value}});
        QCOMPARE(view.topLevelItemCount(), 1);
        QCOMPARE(view.topLevelItem(0)->text(Ui::JsonTreeView::KeyColumn), key);
        QCOMPARE(view.topLevelItem(0)->text(Ui::JsonTreeView::ValueColumn), shown);
    }

    void aTimeShowsItsDateOnHover()
    {
        Ui::JsonTreeView view;
        const qint64 us = TraceSamples::T0;
        view.setJson(QJsonObject{{u"endedUs"_s, us}});
        const QString tip = view.topLevelItem(0)->toolTip(Ui::JsonTreeView::ValueColumn);
        QVERIFY2(tip.contains(QLocale().toString(QDateTime::fromMSecsSinceEpoch(us / 1000).date(),
                                                 QLocale::LongFormat)),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLocale().toString(us)), qPrintable(tip));
    }

    void keysValuesAndLiteralsHaveTheirOwnColours()
    {
        Ui::JsonTreeView view;
        view.setJson(QJsonObject{{u"a"_s, u"text"_s}, {u"b"_s, 1}, {u"c"_s, false}});
        QSet<QRgb> colours{view.topLevelItem(0)->foreground(Ui::JsonTreeView::KeyColumn).color().rgb()};
        for (int i = 0; i < 3; ++i)
            colours.insert(view.topLevelItem(i)->foreground(Ui::JsonTreeView::ValueColumn).color().rgb());
        QCOMPARE(colours.size(), 4);
    }

    void theHeaderShowsTimeToFirstTokenAndTokensPerSecond_data()
    {
        QTest::addColumn<qint64>("firstTokenAfterMs"); // after the answering attempt started
        QTest::addColumn<QString>("expected");
        // The answering attempt starts at 500 ms and the call ends at 1000 ms; 34 output tokens.
        QTest::newRow("first token after 100 ms")
            << qint64(100)
            << TraceModel::formatDuration(100'000) + u" · "_s + QLocale().toString(85.0, 'f', 1);
        QTest::newRow("first token after 330 ms")
            << qint64(330)
            << TraceModel::formatDuration(330'000) + u" · "_s + QLocale().toString(200.0, 'f', 1);
    }

    void theHeaderShowsTimeToFirstTokenAndTokensPerSecond()
    {
        QFETCH(qint64, firstTokenAfterMs);
        QFETCH(QString, expected);
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        trace.update(s.modelCall, [firstTokenAfterMs](TraceNode &node) {
            node.data<ModelCallData>().firstTokenUs
                = TraceSamples::T0 + (500 + firstTokenAfterMs) * TraceSamples::Ms;
        });
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);

        QLabel *facts = nullptr;
        for (QLabel *l : pane.findChildren<QLabel *>()) {
            if (l->accessibleName() == u"Timing and tokens"_s)
                facts = l;
        }
        QVERIFY(facts);
        const QString ttft = expected.section(u" · "_s, 0, 0);
        const QString rate = expected.section(u" · "_s, 1);
        QVERIFY2(facts->text().contains(ttft), qPrintable(facts->text()));
        QVERIFY2(facts->text().contains(rate + u" tokens/s"_s), qPrintable(facts->text()));
        const QString tip
            = model.indexForNode(s.modelCall, TraceModel::TokensColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(ttft) && tip.contains(rate), qPrintable(tip));
    }

    void aCallWithoutAFirstTokenShowsNoRate()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);
        for (QLabel *l : pane.findChildren<QLabel *>())
            QVERIFY(!l->text().contains(u"tokens/s"_s));
    }

    void theStartTimeShowsItsDateOnHover()
    {
        Trace trace;
        TraceModel model(&trace);
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(s.modelCall);
        QLabel *facts = nullptr;
        for (QLabel *l : pane.findChildren<QLabel *>()) {
            if (l->accessibleName() == u"Timing and tokens"_s)
                facts = l;
        }
        QVERIFY(facts);
        const QDateTime started
            = QDateTime::fromMSecsSinceEpoch((TraceSamples::T0 + 10 * TraceSamples::Ms) / 1000);
        QVERIFY(facts->text().contains(QLocale().toString(started.time(), u"HH:mm:ss.zzz"_s)));
        QVERIFY2(facts->toolTip().contains(QLocale().toString(started.date(), QLocale::LongFormat)),
                 qPrintable(facts->toolTip()));
    }

    void theRequestTreeFillsInWhileTheCallRuns()
    {
        Trace trace;
        TraceModel model(&trace);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, TraceSamples::T0, TurnData{});
        ModelCallData data;
        ModelRequest request;
        request.options.model = u"m"_s;
        data.request = request;
        const int call = trace.begin(turn, TraceKind::ModelCall, u"chat"_s, TraceSamples::T0, data);
        Ui::TraceDetailsPane pane(&model);
        pane.setNode(call);
        QVERIFY(pane.requestView()->topLevelItemCount() > 0); // the loop's request until an attempt ends

        ModelAttempt attempt;
        attempt.request = TraceSamples::wireRequest();
        trace.update(call, [&attempt](TraceNode &node) { node.data<ModelCallData>().attempts = {attempt}; });
        QTRY_VERIFY(childNamed(pane.requestView()->invisibleRootItem(), u"stream"_s) != nullptr);
    }

    void everyControlHasAnAccessibleName()
    {
        Trace trace;
        TraceModel model(&trace);
        Ui::TraceDetailsPane pane(&model);
        for (QWidget *widget : pane.findChildren<QWidget *>()) {
            if (widget->focusPolicy() == Qt::NoFocus || widget->parentWidget() != &pane)
                continue;
            QVERIFY2(!widget->accessibleName().isEmpty(), widget->metaObject()->className());
        }
    }
};

QTEST_MAIN(TraceDetailsPaneTest)
#include "tst_tracedetailspane.moc"
