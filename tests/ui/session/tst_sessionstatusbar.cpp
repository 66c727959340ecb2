// The main window's status bar on its own: its fields follow the session, and
// in a narrow bar they shorten with their full words in their tooltips.

#include "agent/session/chatsession.h"
#include "agent/transcript/transcript.h"
#include "ui/session/sessionstatusbar.h"

#include <QLabel>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QLabel *field(const Ui::SessionStatusBar &bar, const QString &accessibleName)
{
    for (QLabel *label : bar.findChildren<QLabel *>()) {
        if (label->accessibleName() == accessibleName)
            return label;
    }
    qWarning("no status field named %s", qPrintable(accessibleName));
    return nullptr;
}

} // namespace

class SessionStatusBarTest : public QObject
{
    Q_OBJECT

private slots:
    void withoutAProviderOrATurnTheFieldsSaySo()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        const QStringList fields = bar.text().split(u" | "_s);
        QCOMPARE(fields.size(), 6);
        QCOMPARE(fields.at(0), u"No provider"_s);
        QVERIFY2(fields.at(1).startsWith(u"Tokens: 0 this turn"_s), qPrintable(fields.at(1)));
        QCOMPARE(fields.at(4), u"No iteration yet"_s);
        QCOMPARE(fields.at(5), u"Idle"_s);
    }

    void aRestoredSessionShowsItsTokens()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        const TranscriptLoadResult loaded
            = TranscriptFile::load(u":/examples/example-three-iterations.loopscope.json"_s);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QVERIFY(session.restore(*loaded.transcript));
        QVERIFY(session.usage()->sessionUsage().total() > 0);
        QVERIFY2(bar.text().contains(QLocale().toString(qlonglong(session.usage()->sessionUsage().total()))
                                     + u" this session"_s),
                 qPrintable(bar.text()));
    }

    void typingAQuestionCountsItInTheContextGauge()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        QVERIFY2(!bar.text().contains(u"Context: ≈"_s), qPrintable(bar.text()));
        draft.setPlainText(u"What is the square root of 1764, times the number of days in a week?"_s);
        QVERIFY2(bar.text().contains(u"Context: ≈"_s), qPrintable(bar.text()));
        draft.clear();
        QVERIFY2(!bar.text().contains(u"Context: ≈"_s), qPrintable(bar.text()));
    }

    void aNarrowBarShortensItsFieldsWithTheFullWordsInTheirTooltips_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("shortened");
        QTest::newRow("a wide bar shows every field whole") << 2400 << false;
        QTest::newRow("a narrow bar shows the brief forms") << 460 << true;
    }

    void aNarrowBarShortensItsFieldsWithTheFullWordsInTheirTooltips()
    {
        QFETCH(int, width);
        QFETCH(bool, shortened);
        QNetworkAccessManager network;
        ChatSession session(&network);
        const TranscriptLoadResult loaded
            = TranscriptFile::load(u":/examples/example-three-iterations.loopscope.json"_s);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QVERIFY(session.restore(*loaded.transcript));
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        bar.resize(width, bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QTRY_COMPARE(bar.width(), width);

        const QStringList full = bar.text().split(u" | "_s);
        QCOMPARE(full.size(), 6);
        const QStringList names{u"Tokens"_s, u"Cost"_s, u"Context window"_s};
        for (int i = 0; i < names.size(); ++i) {
            QLabel *label = field(bar, names.at(i));
            QVERIFY(label);
            const QString words = full.at(i + 1);
            if (shortened) {
                QVERIFY2(label->text() != words, qPrintable(label->text()));
                QVERIFY2(label->toolTip().startsWith(words), qPrintable(label->toolTip()));
            } else {
                QCOMPARE(label->text(), words);
                QVERIFY2(!label->toolTip().startsWith(words), qPrintable(label->toolTip()));
            }
        }
        // What is left of the bar is the provider's: its words are elided, the whole in its tooltip.
        QLabel *provider = field(bar, u"Provider and model"_s);
        QVERIFY(provider);
        QCOMPARE(provider->toolTip().isEmpty(), provider->text() == full.at(0));
        // Whatever the width, the words never outlast the bar's fields.
        QVERIFY(full.join(u" | "_s).contains(u"this session"_s));
    }

    void aLongMessageIsElidedWithItsWholeTextOnHoverAndExpires()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        bar.resize(900, bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        const QString message = u"The replay of this turn diverged from its recording at the model call of "
                                "iteration 2 and finished in three iterations; Failed to execute child "
                                "process \"xdg-open\" (No such file or directory)"_s;
        bar.say(message, 300);
        QLabel *shown = bar.messageLabel();
        QVERIFY(shown->isVisible());
        QCOMPARE(bar.message(), message);
        // Never cut at the edge mid-word: elided to the room it has, the whole on hover.
        QVERIFY2(shown->text().endsWith(u"…"_s), qPrintable(shown->text()));
        QVERIFY2(shown->fontMetrics().horizontalAdvance(shown->text()) <= shown->contentsRect().width(),
                 qPrintable(u"%1 px: %2"_s.arg(shown->contentsRect().width()).arg(shown->text())));
        QCOMPARE(shown->toolTip(), message);
        QVERIFY(!field(bar, u"Provider and model"_s)->isVisible());
        // Its time up, it goes and the provider is back.
        QTRY_VERIFY(bar.message().isEmpty());
        QVERIFY(!shown->isVisible());
        QVERIFY(field(bar, u"Provider and model"_s)->isVisible());
    }

    void aShortMessageIsShownWholeWithoutATooltip()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        QPlainTextEdit draft;
        Ui::SessionStatusBar bar(&session, &draft);
        bar.resize(1280, bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        bar.say(u"The next turn uses gpt-4o."_s);
        QCOMPARE(bar.messageLabel()->text(), u"The next turn uses gpt-4o."_s);
        QVERIFY(bar.messageLabel()->toolTip().isEmpty());
        // Nor does a message change the fields' words.
        QVERIFY2(!bar.text().contains(u"gpt-4o."_s), qPrintable(bar.text()));
    }
};

QTEST_MAIN(SessionStatusBarTest)
#include "tst_sessionstatusbar.moc"
