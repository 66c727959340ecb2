#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessionknowledge.h"
#include "agent/session/sessionsetup.h"
#include "agent/transcript/transcript.h"
#include "tests/support/knowledgebases.h"
#include "tests/support/onekeykeychain.h"

#include <QDir>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QStringList namesOf(const QList<AttachedKnowledgeBase> &bases)
{
    QStringList names;
    for (const AttachedKnowledgeBase &base : bases)
        names.append(base.name);
    return names;
}

} // namespace

/*
    The knowledge bases a session in the window attaches: chosen by name, in the session's set-up, saved
    with the session and attached again when it is reopened.
*/
class TestSessionKnowledge final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_data;

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(Testing::addManualAndNotes(m_dir.path()), QString());
        m_data = m_dir.filePath(u"knowledge"_s);
    }

    void theChoiceIsTheSessionsSetup()
    {
        QNetworkAccessManager network;
        ChatSession session(&network);
        SessionKnowledge knowledge(&session, m_data);
        QSignalSpy changed(&knowledge, &SessionKnowledge::chosenChanged);

        knowledge.setAttached(u"notes"_s, true);
        knowledge.setAttached(u"manual"_s, true);

        QCOMPARE(namesOf(session.setup().knowledge), (QStringList{u"notes"_s, u"manual"_s}));
        QCOMPARE(session.setup().knowledge.first().databasePath,
                 KnowledgeLibrary(m_data).databasePath(u"notes"_s));
        QCOMPARE(changed.count(), 2);

        knowledge.setAttached(u"notes"_s, false);
        QCOMPARE(knowledge.chosen(), QStringList{u"manual"_s});
    }

    void theChoiceIsSavedWithTheSessionAndRestored_data()
    {
        QTest::addColumn<QStringList>("chosen");
        QTest::addColumn<QStringList>("removedBeforeReopening");
        QTest::addColumn<QStringList>("restored");
        QTest::addColumn<int>("problems");
        QTest::newRow("two bases") << QStringList{u"manual"_s, u"notes"_s} << QStringList() //
                                   << QStringList{u"manual"_s, u"notes"_s} << 0;
        QTest::newRow("none") << QStringList() << QStringList() << QStringList() << 0;
        QTest::newRow("a base removed since is said and left out")
            << QStringList{u"manual"_s, u"notes"_s} << QStringList{u"notes"_s} << QStringList{u"manual"_s}
            << 1;
    }

    void theChoiceIsSavedWithTheSessionAndRestored()
    {
        QFETCH(QStringList, chosen);
        QFETCH(QStringList, removedBeforeReopening);
        QFETCH(QStringList, restored);
        QFETCH(int, problems);
        QNetworkAccessManager network;
        const QString file = m_dir.filePath(u"chat.loopscope.json"_s);
        {
            ChatSession session(&network);
            SessionKnowledge knowledge(&session, m_data);
            knowledge.choose(chosen);
            QString error;
            QVERIFY2(TranscriptFile::save(session.toTranscript(), file, &error), qPrintable(error));
        }
        for (const QString &name : removedBeforeReopening)
            QCOMPARE(KnowledgeLibrary(m_data).remove(name), QString());

        const TranscriptLoadResult loaded = TranscriptFile::load(file);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QCOMPARE(loaded.transcript->knowledge, chosen);
        ChatSession reopened(&network);
        SessionKnowledge knowledge(&reopened, m_data);
        knowledge.choose({u"notes"_s}); // the previous conversation's choice is not carried over
        QSignalSpy problem(&knowledge, &SessionKnowledge::problem);
        QString error;
        QVERIFY2(reopened.restore(*loaded.transcript, &error), qPrintable(error));

        QCOMPARE(knowledge.chosen(), restored);
        QCOMPARE(problem.count(), problems);
    }

    void automaticRetrievalIsAUserSetting_data()
    {
        QTest::addColumn<bool>("automatic");
        QTest::newRow("tool") << false;
        QTest::newRow("auto") << true;
    }

    void automaticRetrievalIsAUserSetting()
    {
        QFETCH(bool, automatic);
        QSettings stored(m_dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        QCOMPARE(settings.retrieveKnowledgeBeforeTurn(), false);
        settings.setRetrieveKnowledgeBeforeTurn(automatic);

        SessionSetup base;
        base.knowledge = {{u"notes"_s, u"/x/notes.sqlite"_s, {}}};
        const SessionSetup setup = SessionSetup::fromSettings(settings, base);

        QCOMPARE(setup.retrieveBeforeTurn, automatic);
        QCOMPARE(namesOf(setup.knowledge), QStringList{u"notes"_s}); // the session's choice is kept
        QCOMPARE(stored.value(u"knowledge/retrieve"_s, u"tool"_s).toString(),
                 automatic ? u"auto"_s : u"tool"_s);
    }

    void aBaseChosenFromAProfileSearchesWithTheProfilesKeychainKey()
    {
        const QString key = u"sk-only-in-the-keychain"_s;
        qunsetenv("LOOPSCOPE_TEST_KB_KEY_NOT_SET");
        KnowledgeBaseDefinition embedded{u"embedded"_s, {m_dir.filePath(u"docs"_s)}, {}};
        embedded.embedding = {ProviderKind::OpenAi, QUrl(u"http://127.0.0.1:9/v1"_s), u"concepts"_s,
                              u"LOOPSCOPE_TEST_KB_KEY_NOT_SET"_s, u"embedder"_s};
        QCOMPARE(KnowledgeLibrary(m_data).add(embedded), QString());
        QSettings settings(m_dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore profiles(&settings);
        ProviderProfile profile;
        profile.id = u"embedder"_s;
        profile.name = u"Embedder"_s;
        profiles.save(profile);
        Testing::OneKeyKeychain keychain(profile.id, key);
        QNetworkAccessManager network;
        ChatSession session(&network);
        SessionKnowledge knowledge(&session, m_data);
        knowledge.setKeyReader(KnowledgeKeyReader(&profiles, &keychain));
        QSignalSpy problems(&knowledge, &SessionKnowledge::problem);

        // Attaching another base while the keychain is still asked keeps the first.
        knowledge.setAttached(u"embedded"_s, true);
        knowledge.setAttached(u"notes"_s, true);

        QTRY_COMPARE(knowledge.chosen(), (QStringList{u"embedded"_s, u"notes"_s}));
        QCOMPARE(problems.count(), 0);
        QCOMPARE(session.setup().knowledge.first().embedding.apiKey, key);
        QCOMPARE(session.setup().knowledge.first().embedding.model, u"concepts"_s);
        QCOMPARE(session.setup().knowledge.last().embedding.apiKey, QString());
    }
};

QTEST_GUILESS_MAIN(TestSessionKnowledge)
#include "tst_sessionknowledge.moc"
