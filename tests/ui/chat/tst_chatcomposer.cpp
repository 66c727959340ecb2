#include "ui/chat/chatcomposer.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

class ChatComposerTest : public QObject
{
    Q_OBJECT

private slots:
    void enterSendsOrBreaksTheLineAsConfigured_data()
    {
        QTest::addColumn<bool>("sendOnEnter");
        QTest::addColumn<int>("key");
        QTest::addColumn<Qt::KeyboardModifiers>("modifiers");
        QTest::addColumn<bool>("sends");

        const Qt::KeyboardModifiers none = Qt::NoModifier;
        QTest::newRow("Ctrl+Enter sends")
            << false << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ControlModifier) << true;
        QTest::newRow("keypad Ctrl+Enter sends")
            << false << int(Qt::Key_Enter) << (Qt::ControlModifier | Qt::KeypadModifier) << true;
        QTest::newRow("Enter makes a new line") << false << int(Qt::Key_Return) << none << false;
        QTest::newRow("Shift+Enter makes a new line")
            << false << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ShiftModifier) << false;
        QTest::newRow("with send on Enter, Enter sends") << true << int(Qt::Key_Return) << none << true;
        QTest::newRow("with send on Enter, Shift+Enter makes a new line")
            << true << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ShiftModifier) << false;
        QTest::newRow("with send on Enter, Ctrl+Enter still sends")
            << true << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ControlModifier) << true;
    }
    void enterSendsOrBreaksTheLineAsConfigured()
    {
        QFETCH(bool, sendOnEnter);
        QFETCH(int, key);
        QFETCH(Qt::KeyboardModifiers, modifiers);
        QFETCH(bool, sends);

        ChatComposer composer;
        composer.setSendOnEnter(sendOnEnter);
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QTest::keyClicks(composer.editor(), u"hello"_s);
        QTest::keyClick(composer.editor(), Qt::Key(key), modifiers);

        if (sends) {
            QCOMPARE(sent.size(), 1);
            QCOMPARE(sent.at(0).at(0).toString(), u"hello"_s);
            QCOMPARE(composer.text(), QString());
        } else {
            QCOMPARE(sent.size(), 0);
            QCOMPARE(composer.editor()->blockCount(), 2);
            QTest::keyClicks(composer.editor(), u"world"_s);
            QCOMPARE(composer.text(), u"hello\nworld"_s);
        }
    }

    void theSendButtonSendsTheTrimmedText()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QVERIFY(!composer.sendButton()->isEnabled());
        composer.setText(u"  line one\nline two \n"_s);
        QVERIFY(composer.sendButton()->isEnabled());
        QTest::mouseClick(composer.sendButton(), Qt::LeftButton);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), u"line one\nline two"_s);
        QVERIFY(!composer.sendButton()->isEnabled());
    }

    void blankTextIsNotSent()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        composer.setText(u"  \n\t "_s);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        composer.send();
        QCOMPARE(sent.size(), 0);
    }

    void escapeCancelsOnlyWhileBusy_data()
    {
        QTest::addColumn<bool>("busy");
        QTest::newRow("while a turn runs") << true;
        QTest::newRow("between turns") << false;
    }
    void escapeCancelsOnlyWhileBusy()
    {
        QFETCH(bool, busy);
        ChatComposer composer;
        composer.setBusy(busy);
        QSignalSpy cancelled(&composer, &ChatComposer::cancelRequested);
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.size(), busy ? 1 : 0);
    }

    void editingShowsABannerAndSendAsksForTheResend()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QSignalSpy editing(&composer, &ChatComposer::editingChanged);
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy resent(&composer, &ChatComposer::editResendRequested);

        composer.beginEdit(u"What is 2 + 2?"_s);
        QVERIFY(composer.isEditing());
        QVERIFY(composer.editBanner()->isVisible());
        QCOMPARE(composer.text(), u"What is 2 + 2?"_s);
        QCOMPARE(editing.size(), 1);

        QTest::keyClicks(composer.editor(), u" And 3 + 3?"_s);
        composer.send();
        QCOMPARE(resent.size(), 1);
        QCOMPARE(resent.first().first().toString(), u"What is 2 + 2? And 3 + 3?"_s);
        QCOMPARE(sent.size(), 0);
        QVERIFY(!composer.isEditing());
        QVERIFY(!composer.editBanner()->isVisible());
        QCOMPARE(editing.last().first().toBool(), false);
    }

    void leavingEditModeBringsBackTheDraft_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("Esc") << u"Esc"_s;
        QTest::newRow("Cancel") << u"Cancel"_s;
    }

    void leavingEditModeBringsBackTheDraft()
    {
        QFETCH(QString, how);
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QTest::keyClicks(composer.editor(), u"a draft"_s);
        QSignalSpy editing(&composer, &ChatComposer::editingChanged);
        composer.beginEdit(u"the last question"_s);
        QVERIFY(composer.isEditing());

        if (how == u"Esc")
            QTest::keyClick(composer.editor(), Qt::Key_Escape);
        else
            QTest::mouseClick(composer.cancelEditButton(), Qt::LeftButton);

        QVERIFY(!composer.isEditing());
        QVERIFY(!composer.editBanner()->isVisible());
        QCOMPARE(composer.text(), u"a draft"_s);
        QCOMPARE(editing.size(), 2);
        QCOMPARE(editing.last().first().toBool(), false);
    }

    void aQuestionWrittenAfterEmptyingTheEditIsSentAsANewOne()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy resent(&composer, &ChatComposer::editResendRequested);
        composer.beginEdit(u"the last question"_s);

        composer.editor()->selectAll();
        QTest::keyClick(composer.editor(), Qt::Key_Delete);
        QVERIFY(!composer.isEditing());
        QTest::keyClicks(composer.editor(), u"a new question"_s);
        composer.send();

        QCOMPARE(resent.size(), 0);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().first().toString(), u"a new question"_s);
    }

    void whileBusyStopReplacesSendAndNothingIsSent()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy cancelled(&composer, &ChatComposer::cancelRequested);
        QVERIFY(composer.sendButton()->isVisible());
        QVERIFY(!composer.stopButton()->isVisible());

        composer.setBusy(true);
        QVERIFY(!composer.sendButton()->isVisible());
        QVERIFY(composer.stopButton()->isVisible());
        QTest::keyClicks(composer.editor(), u"next question"_s);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.size(), 0);
        QCOMPARE(composer.text(), u"next question"_s); // kept for when the turn ends

        QTest::mouseClick(composer.stopButton(), Qt::LeftButton);
        QCOMPARE(cancelled.size(), 1);

        composer.setBusy(false);
        QVERIFY(composer.sendButton()->isVisible());
        QVERIFY(!composer.stopButton()->isVisible());
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), u"next question"_s);
    }

    void setTextPreparesAnEditWithTheCursorAtTheEnd()
    {
        ChatComposer composer;
        composer.setText(u"What is 2 + 2?"_s);
        QCOMPARE(composer.text(), u"What is 2 + 2?"_s);
        QCOMPARE(composer.editor()->textCursor().position(), int(u"What is 2 + 2?"_s.size()));
        QTest::keyClicks(composer.editor(), u" And 3 + 3?"_s);
        QCOMPARE(composer.text(), u"What is 2 + 2? And 3 + 3?"_s);
    }

    void theEditorGrowsWithItsTextUpToALimit()
    {
        ChatComposer composer;
        composer.resize(400, 300);
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        const int empty = composer.editor()->height();
        composer.setText(u"1\n2\n3\n4\n5"_s);
        QTRY_VERIFY(composer.editor()->height() > empty);
        const int five = composer.editor()->height();
        composer.setText(QStringList(40, u"line"_s).join(u'\n'));
        QTRY_VERIFY(composer.editor()->height() > five);
        const int many = composer.editor()->height();
        composer.setText(QStringList(80, u"line"_s).join(u'\n'));
        QTest::qWait(20);
        QCOMPARE(composer.editor()->height(), many);
    }
};

QTEST_MAIN(ChatComposerTest)
#include "tst_chatcomposer.moc"
