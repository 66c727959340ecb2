#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/tracedetailspane.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

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

} // namespace

class TraceDetailsPaneTest : public QObject
{
    Q_OBJECT

private slots:
    void init() { QGuiApplication::clipboard()->clear(); }

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
