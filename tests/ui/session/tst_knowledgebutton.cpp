#include "agent/knowledge/knowledgelibrary.h"
#include "agent/session/chatsession.h"
#include "agent/session/knowledgebasesmodel.h"
#include "agent/session/sessionknowledge.h"
#include "agent/session/sessionsetup.h"
#include "tests/support/knowledgebases.h"
#include "ui/session/knowledgebutton.h"

#include <QDir>
#include <QMenu>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

/*
    The Knowledge button beside the message: its menu lists the bases, checked as the session attaches
    them; checking one attaches it; a reopened session's bases show checked.
*/
class TestKnowledgeButton final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_data;

    static QAction *action(KnowledgeButton &button, const QString &text)
    {
        button.rebuildMenu();
        for (QAction *action : button.menu()->actions()) {
            if (action->text() == text)
                return action;
        }
        return nullptr;
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(Testing::addManualAndNotes(m_dir.path()), QString());
        m_data = m_dir.filePath(u"knowledge"_s);
    }

    void checkingABaseAttachesItToTheSession()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        KnowledgeBasesModel bases(m_data);
        SessionKnowledge choice(&session, m_data);
        KnowledgeButton button(&bases, &choice);
        QCOMPARE(button.text(), u"Knowledge"_s);
        QVERIFY(action(button, u"notes"_s));
        QVERIFY(!action(button, u"notes"_s)->isChecked());

        action(button, u"notes"_s)->trigger();

        QCOMPARE(choice.chosen(), QStringList{u"notes"_s});
        QCOMPARE(session.setup().knowledge.size(), 1);
        QCOMPARE(button.text(), u"Knowledge (1)"_s);
        QVERIFY(action(button, u"notes"_s)->isChecked());
        QVERIFY(!action(button, u"manual"_s)->isChecked());

        action(button, u"notes"_s)->trigger();
        QCOMPARE(choice.chosen(), QStringList());
        QCOMPARE(button.text(), u"Knowledge"_s);
    }

    void aReopenedSessionShowsItsBasesChecked()
    {
        QNetworkAccessManager network;
        ChatSession earlier(&network);
        SessionKnowledge earlierChoice(&earlier, m_data);
        earlierChoice.choose({u"manual"_s});
        const Transcript saved = earlier.toTranscript();

        ChatSession session(&network);
        KnowledgeBasesModel bases(m_data);
        SessionKnowledge choice(&session, m_data);
        KnowledgeButton button(&bases, &choice);
        QVERIFY(session.restore(saved));

        QCOMPARE(button.text(), u"Knowledge (1)"_s);
        QVERIFY(action(button, u"manual"_s)->isChecked());
        QVERIFY(!action(button, u"notes"_s)->isChecked());
    }

    void manageOpensTheSettings()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        KnowledgeBasesModel bases(m_data);
        SessionKnowledge choice(&session, m_data);
        KnowledgeButton button(&bases, &choice);
        QSignalSpy manage(&button, &KnowledgeButton::manageRequested);
        QAction *manageAction = button.menu()->actions().constLast();
        manageAction->trigger();
        QCOMPARE(manage.count(), 1);
    }
};

QTEST_MAIN(TestKnowledgeButton)
#include "tst_knowledgebutton.moc"
