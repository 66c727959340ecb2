// Agents in the window: the Agents page over a real store, and the toolbar's chooser driving a real
// session over HTTP (a fake OpenAI-compatible server on 127.0.0.1).

#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/session/agentapplier.h"
#include "agent/session/agentlistmodel.h"
#include "agent/session/agentstore.h"
#include "agent/session/chatsession.h"
#include "agent/session/conversationrows.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/mnemonics.h"
#include "tests/support/onekeykeychain.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/testfiles.h"
#include "ui/agents/agentchooser.h"
#include "ui/agents/agentsdialog.h"
#include "ui/agents/agentspage.h"
#include "ui/settings/shieldseditor.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <cmath>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

namespace {

AgentPreset preset(const QString &name, const QString &instructions)
{
    AgentPreset agent;
    agent.name = name;
    agent.instructions = instructions;
    return agent;
}

// The system message of the last request \a server saw.
QString lastSystemPrompt(const FakeHttpServer &server)
{
    const QJsonArray messages = server.requests().constLast().json().value(u"messages"_s).toArray();
    return messages.at(0)[u"role"_s].toString() == u"system" ? messages.at(0)[u"content"_s].toString()
                                                             : QString();
}

// The item of the Tools checklist for \a entry (what an agent's "tools" holds), or nullptr.
QTreeWidgetItem *toolItem(QTreeWidget *tree, const QString &entry)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        if ((*it)->data(0, Qt::UserRole).toString() == entry)
            return *it;
    }
    return nullptr;
}

} // namespace

class AgentsWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<AgentStore>(m_dir.path() + u"/agents-%1"_s.arg(++m_count));
        QString error;
        QVERIFY(m_store->save({}, preset(u"billing"_s, u"You answer invoices."_s), &error));
    }

    void cleanup() { m_store.reset(); }

    void thePageSavesAnEditAsANewVersionAndShowsTheHistory()
    {
        AgentsPage page(m_store.get(), {u"Local"_s}, {u"calculator"_s, u"current_time"_s});
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.selectedName(), u"billing"_s);
        QCOMPARE(page.instructionsEdit()->toPlainText(), u"You answer invoices."_s);

        page.instructionsEdit()->setPlainText(u"You answer invoices, briefly."_s);
        page.providerBox()->setCurrentIndex(page.providerBox()->findData(u"Local"_s));
        QVERIFY2(page.saveShown(), qPrintable(page.status()));

        const AgentPreset *stored = m_store->roster().find(u"billing"_s);
        QCOMPARE(stored->version, 2);
        QCOMPARE(stored->instructions, u"You answer invoices, briefly."_s);
        QCOMPARE(stored->provider, std::optional<QString>(u"Local"_s));
        QCOMPARE(page.historyList()->count(), 2);
        page.historyList()->setCurrentRow(0);
        QVERIFY(page.versionView()->toPlainText().contains(u"\"You answer invoices.\""_s));
    }

    void thePageMakesAndDeletesAgentsAndKeepsWhatItCannotShow()
    {
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.compaction = CompactionStrategy::DropOldest;
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));
        AgentsPage page(m_store.get(), {}, {u"calculator"_s});
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        page.instructionsEdit()->setPlainText(u"Edited."_s);
        QVERIFY(page.saveShown());
        QCOMPARE(m_store->roster().find(u"billing"_s)->compaction,
                 std::optional(CompactionStrategy::DropOldest));

        page.newAgent();
        page.nameEdit()->setText(u"support"_s);
        page.instructionsEdit()->setPlainText(u"You help."_s);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QCOMPARE(page.model()->rowCount(), 2);
        QCOMPARE(m_store->roster().find(u"support"_s)->version, 1);

        QVERIFY(page.deleteShown());
        QCOMPARE(page.model()->rowCount(), 1);
        QVERIFY(!m_store->roster().find(u"support"_s));
    }

    void anAgentsOwnShieldsAreEditedOnThePageAndStored()
    {
        AgentsPage page(m_store.get(), {}, {});
        auto *sessionShields = page.findChild<QCheckBox *>(u"agentSessionShields"_s);
        QVERIFY(sessionShields);
        QVERIFY(sessionShields->isChecked()); // a new agent runs with the session's shields
        QVERIFY(!page.shieldsEditor()->isEnabled());

        sessionShields->setChecked(false);
        RuleShield::Rule rule;
        rule.pattern = u"password"_s;
        rule.message = u"No passwords."_s;
        AgentShields own;
        own.rules.append(rule);
        page.shieldsEditor()->setShields(own);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));

        const AgentPreset *stored = m_store->roster().find(u"billing"_s);
        QCOMPARE(stored->version, 2);
        QVERIFY(stored->shields);
        QCOMPARE(stored->shields->rules.size(), 1);
        QCOMPARE(stored->shields->rules.constFirst().pattern, u"password"_s);

        // Back to the session's: the agent's own are dropped, as an absent "shields" in the file.
        sessionShields->setChecked(true);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QVERIFY(!m_store->roster().find(u"billing"_s)->shields);
    }

    void anAgentsKnowledgeBasesAreCheckedOnThePageAndStored()
    {
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.knowledge = QStringList{u"gone"_s}; // no longer in the library: kept, and shown
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));
        AgentsPage page(m_store.get(), {}, {u"calculator"_s});
        page.setKnowledgeBaseNames({u"notes"_s, u"manuals"_s});
        QVERIFY(!page.sessionKnowledgeBox()->isChecked());
        QVERIFY(page.knowledgeList()->isEnabled());
        QCOMPARE(page.knowledgeList()->count(), 3);
        const auto item = [&page](const QString &name) {
            return page.knowledgeList()->findItems(name, Qt::MatchExactly).value(0);
        };
        QVERIFY(item(u"gone"_s) && item(u"notes"_s) && item(u"manuals"_s));
        QCOMPARE(item(u"gone"_s)->checkState(), Qt::Checked);
        QCOMPARE(item(u"notes"_s)->checkState(), Qt::Unchecked);

        item(u"gone"_s)->setCheckState(Qt::Unchecked);
        item(u"manuals"_s)->setCheckState(Qt::Checked);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QCOMPARE(m_store->roster().find(u"billing"_s)->knowledge, std::optional(QStringList{u"manuals"_s}));

        // None checked is "no knowledge bases", not the session's.
        item(u"manuals"_s)->setCheckState(Qt::Unchecked);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QCOMPARE(m_store->roster().find(u"billing"_s)->knowledge, std::optional<QStringList>(QStringList()));

        page.sessionKnowledgeBox()->setChecked(true);
        QVERIFY(!page.knowledgeList()->isEnabled());
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QVERIFY(!m_store->roster().find(u"billing"_s)->knowledge);
        page.select(u"billing"_s);
        QVERIFY(page.sessionKnowledgeBox()->isChecked());
    }

    void everyLoopOptionIsShownAndSavedBackAsItWas()
    {
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.maxIterations = 7;
        billing.wrapUpIterations = 2;
        billing.toolLessFinalIteration = false;
        billing.maxParallelTools = 3;
        billing.maxToolCallsPerResponse = 12;
        billing.toolTimeoutSeconds = 90;
        billing.tokenBudget = 50'000;
        billing.postLoop = PostLoopMode::Summary;
        billing.onHandoff = HandoffMode::End;
        billing.handoffHistory = HandoffHistory::Text;
        billing.maxHandoffs = 2;
        billing.temperature = 0.3;
        billing.maxOutputTokens = 800;
        billing.compaction = CompactionStrategy::Summarise;
        billing.compactAtPercent = 70;
        billing.timeLimitSeconds = 45;
        QString error;
        const std::optional<AgentPreset> stored = m_store->save(u"billing"_s, billing, &error);
        QVERIFY2(stored, qPrintable(error));
        AgentsPage page(m_store.get(), {}, {});

        // Shown and read back unchanged: saving makes no new version.
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        QCOMPARE(m_store->roster().find(u"billing"_s)->version, stored->version);
        QVERIFY(m_store->roster().find(u"billing"_s)->sameDefinition(*stored));

        // Each is edited on the page.
        auto *wrapUp = page.findChild<QSpinBox *>(u"agentWrapUp"_s);
        auto *finalWithoutTools = page.findChild<QComboBox *>(u"agentFinalWithoutTools"_s);
        auto *compaction = page.findChild<QComboBox *>(u"agentCompaction"_s);
        auto *timeLimit = page.findChild<QSpinBox *>(u"agentTimeLimit"_s);
        QVERIFY(wrapUp && finalWithoutTools && compaction && timeLimit);
        QCOMPARE(timeLimit->value(), 45);
        QCOMPARE(wrapUp->value(), 2);
        QCOMPARE(compaction->currentText(), u"summarise"_s);
        wrapUp->setValue(4);
        finalWithoutTools->setCurrentIndex(finalWithoutTools->findData(1));
        compaction->setCurrentIndex(compaction->findText(u"drop-oldest"_s));
        timeLimit->setValue(timeLimit->minimum()); // the session's again
        QVERIFY2(page.saveShown(), qPrintable(page.status()));
        const AgentPreset *edited = m_store->roster().find(u"billing"_s);
        QCOMPARE(edited->version, stored->version + 1);
        QCOMPARE(edited->wrapUpIterations, std::optional(4));
        QCOMPARE(edited->toolLessFinalIteration, std::optional(true));
        QCOMPARE(edited->compaction, std::optional(CompactionStrategy::DropOldest));
        QCOMPARE(edited->timeLimitSeconds, std::nullopt);
    }

    void anMcpServerIsCheckedWholeAndComesBackChecked()
    {
        const QList<AgentsPage::McpServerTools> servers{{u"files"_s, {u"read"_s, u"list"_s}},
                                                        {u"web"_s, {u"fetch"_s}}};
        const QStringList chosen{u"calculator"_s, u"mcp:files"_s, u"fetch"_s};
        {
            AgentsPage page(m_store.get(), {}, {u"calculator"_s, u"current_time"_s});
            page.setMcpServers(servers);
            page.sessionToolsBox()->setChecked(false);
            QTreeWidgetItem *files = toolItem(page.toolTree(), u"mcp:files"_s);
            QVERIFY(files);
            QVERIFY2(files->text(0).contains(u"files"_s), qPrintable(files->text(0)));
            QCOMPARE(files->childCount(), 2);
            QVERIFY(toolItem(page.toolTree(), u"mcp:web"_s));
            files->setCheckState(0, Qt::Checked);
            // Its tools come with it: they are no choices of their own while it is checked.
            QVERIFY(!(files->child(0)->flags() & Qt::ItemIsEnabled));
            toolItem(page.toolTree(), u"calculator"_s)->setCheckState(0, Qt::Checked);
            toolItem(page.toolTree(), u"fetch"_s)->setCheckState(0, Qt::Checked);
            QVERIFY2(page.saveShown(), qPrintable(page.status()));
        }
        QCOMPARE(m_store->roster().find(u"billing"_s)->tools, std::optional(chosen));

        AgentsPage reopened(m_store.get(), {}, {u"calculator"_s, u"current_time"_s});
        reopened.setMcpServers(servers);
        QVERIFY(!reopened.sessionToolsBox()->isChecked());
        QCOMPARE(toolItem(reopened.toolTree(), u"mcp:files"_s)->checkState(0), Qt::Checked);
        QCOMPARE(toolItem(reopened.toolTree(), u"fetch"_s)->checkState(0), Qt::Checked);
        QCOMPARE(toolItem(reopened.toolTree(), u"mcp:web"_s)->checkState(0), Qt::Unchecked);
        QCOMPARE(reopened.editedAgent().tools, std::optional(chosen));

        // A server no longer configured is still shown, checked, so a Save keeps it.
        AgentsPage without(m_store.get(), {}, {u"calculator"_s});
        QTreeWidgetItem *gone = toolItem(without.toolTree(), u"mcp:files"_s);
        QVERIFY(gone);
        QCOMPARE(gone->checkState(0), Qt::Checked);
        QCOMPARE(without.editedAgent().tools, std::optional(chosen));
    }

    void everyMnemonicOfTheAgentsWindowIsItsOwn()
    {
        AgentsDialog dialog(m_store.get(), {u"Local"_s}, {u"calculator"_s});
        QStringList texts;
        for (const QLabel *label : dialog.findChildren<QLabel *>()) {
            texts.append(label->text());
            // Without a buddy the "&" is shown as is and the shortcut leads nowhere.
            if (QString(label->text()).remove(u"&&"_s).contains(u'&'))
                QVERIFY2(label->buddy(), qPrintable(label->text()));
        }
        for (const QAbstractButton *button : dialog.findChildren<QAbstractButton *>())
            texts.append(button->text());
        QVERIFY(texts.contains(u"N&ame:"_s));
        const QString clash = Test::firstMnemonicClash(texts);
        QVERIFY2(clash.isEmpty(), qPrintable(clash));
    }

    void topPIsTheSessionsUntilSetOnThePage_data()
    {
        QTest::addColumn<double>("stored"); // NaN: none, "the session's"
        QTest::addColumn<double>("typed");  // NaN: back to the minimum, "the session's"
        QTest::newRow("set where it was the session's") << qQNaN() << 0.9;
        QTest::newRow("zero is a value, not the session's") << 0.4 << 0.0;
        QTest::newRow("back to the session's") << 0.9 << qQNaN();
    }

    void topPIsTheSessionsUntilSetOnThePage()
    {
        QFETCH(double, stored);
        QFETCH(double, typed);
        if (!std::isnan(stored)) {
            AgentPreset billing = *m_store->roster().find(u"billing"_s);
            billing.topP = stored;
            QString error;
            QVERIFY2(m_store->save(u"billing"_s, billing, &error), qPrintable(error));
        }
        AgentsPage page(m_store.get(), {}, {});
        auto *topP = page.findChild<QDoubleSpinBox *>(u"agentTopP"_s);
        QVERIFY(topP);
        QCOMPARE(topP->value() == topP->minimum(), std::isnan(stored));
        if (std::isnan(stored))
            QCOMPARE(topP->text(), u"the session's"_s);
        else
            QCOMPARE(topP->value(), stored);

        topP->setValue(std::isnan(typed) ? topP->minimum() : typed);
        QVERIFY2(page.saveShown(), qPrintable(page.status()));

        const AgentPreset *saved = m_store->roster().find(u"billing"_s);
        QCOMPARE(saved->topP, std::isnan(typed) ? std::nullopt : std::optional(typed));
        QCOMPARE(saved->toJson().contains(u"top_p"_s), !std::isnan(typed));
    }

    void aBadNameIsRefusedOnThePageAndNothingIsStored()
    {
        AgentsPage page(m_store.get(), {}, {});
        page.nameEdit()->setText(u"two words"_s);

        QVERIFY(!page.saveShown());

        QVERIFY2(page.status().contains(u"name"_s), qPrintable(page.status()));
        QCOMPARE(m_store->roster().agents.size(), 1);
        QCOMPARE(m_store->roster().agents.constFirst().name, u"billing"_s);
    }

    void aBadImportSaysTheFilesProblemAndLosesNothing()
    {
        AgentsPage page(m_store.get(), {}, {});
        const QString path = m_dir.filePath(u"bad.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"agents":[{"name":"a","instructions":"x","subagents":["a"]}]})");
        file.close();
        QString expected;
        QVERIFY(!AgentRoster::load(path, &expected));
        const AgentRoster before = m_store->roster();

        QVERIFY(!page.importFrom(path));

        QVERIFY2(page.status().contains(expected), qPrintable(page.status()));
        QCOMPARE(m_store->roster(), before);
        QCOMPARE(page.model()->rowCount(), 1);
    }

    void theChosenAgentsInstructionsGoWithTheNextRequest()
    {
        Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));

        f.chooser.choose(u"billing"_s);
        QCOMPARE(f.chooser.agentBox()->currentText(), u"billing"_s);
        QVERIFY(f.sendAndWait(u"my invoice"_s));
        QCOMPARE(lastSystemPrompt(f.server), u"You answer invoices."_s);

        // An edit on the Agents page reaches the next turn.
        QString error;
        QVERIFY(
            m_store->save(u"billing"_s, preset(u"billing"_s, u"You answer invoices in French."_s), &error));
        QVERIFY(f.sendAndWait(u"again"_s));
        QCOMPARE(lastSystemPrompt(f.server), u"You answer invoices in French."_s);

        // This session's own prompt, the agent unchanged.
        f.chooser.setSessionPrompt(u"Answer in one word."_s);
        QVERIFY(f.chooser.sessionPromptAction()->isChecked());
        QVERIFY(f.sendAndWait(u"once more"_s));
        QCOMPARE(lastSystemPrompt(f.server), u"Answer in one word."_s);
        QCOMPARE(m_store->roster().find(u"billing"_s)->instructions, u"You answer invoices in French."_s);

        f.chooser.setSessionPrompt(std::nullopt);
        f.chooser.choose(QString());
        QCOMPARE(f.chooser.agentBox()->currentText(), u"Default"_s);
        QVERIFY(f.sendAndWait(u"and now"_s));
        QCOMPARE(lastSystemPrompt(f.server), u"The loop's prompt."_s);
    }

    void theChosenAgentsOwnKnowledgeBasesAreAttachedFromTheLibraryAndSearched()
    {
        const QString directory = m_dir.filePath(u"knowledge-%1"_s.arg(m_count));
        QCOMPARE(KnowledgeLibrary(directory).add({u"notes"_s, {m_dir.path()}, {}}), QString());
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.knowledge = QStringList{u"notes"_s, u"gone"_s}; // "gone": not in the library, left out
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));
        Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));
        f.applier.setKnowledgeDirectory(directory);

        f.chooser.choose(u"billing"_s);
        QCOMPARE(f.session.setup().agentKnowledge.keys(), QList<QString>{u"notes"_s});
        QVERIFY(f.sendAndWait(u"my invoice"_s));
        const QJsonArray tools = f.server.requests().constLast().json().value(u"tools"_s).toArray();
        const bool offered = std::any_of(tools.begin(), tools.end(), [](const QJsonValue &tool) {
            return tool[u"function"_s][u"name"_s].toString() == KnowledgeSearchTool::Name;
        });
        QVERIFY(offered);

        // The base left out is said in the chat, naming the agent, the base and why: once while the agent
        // stays chosen, again when it is chosen anew.
        const QString said
            = u"Agent \"billing\" searches the knowledge base \"gone\", which is left out: there "
              "is no knowledge base named \"gone\""_s;
        QCOMPARE(noticesContaining(f.session, said), 1);
        f.applier.reapply();
        QVERIFY(f.sendAndWait(u"my second invoice"_s));
        QCOMPARE(noticesContaining(f.session, said), 1);
        f.chooser.choose(QString());
        f.chooser.choose(u"billing"_s);
        QCOMPARE(noticesContaining(f.session, said), 2);
    }

    // A base made in the window remembers the provider profile its embeddings come from; its key is
    // read as chat reads that profile's, from the keychain too, for an agent's base as for the session's.
    void anAgentsBaseSearchesWithItsProfilesKeychainKey()
    {
        const QString directory = m_dir.filePath(u"knowledge-%1"_s.arg(m_count));
        const QString key = u"sk-agent-base-only-in-the-keychain"_s;
        qunsetenv("LOOPSCOPE_TEST_AGENT_KB_KEY_NOT_SET");
        KnowledgeBaseDefinition embedded{u"embedded"_s, {m_dir.path()}, {}};
        embedded.embedding = {ProviderKind::OpenAi, QUrl(u"http://127.0.0.1:9/v1"_s), u"concepts"_s,
                              u"LOOPSCOPE_TEST_AGENT_KB_KEY_NOT_SET"_s, u"embedder"_s};
        QCOMPARE(KnowledgeLibrary(directory).add(embedded), QString());
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.knowledge = QStringList{u"embedded"_s};
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));
        Testing::OneKeyKeychain keychain(u"embedder"_s, key);
        Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)), &keychain);
        ProviderProfile embedder;
        embedder.id = u"embedder"_s;
        embedder.name = u"Embedder"_s;
        f.profiles.save(embedder);
        f.applier.setKnowledgeDirectory(directory);

        f.chooser.choose(u"billing"_s);

        QTRY_VERIFY(f.session.setup().agentKnowledge.contains(u"embedded"_s));
        QCOMPARE(f.session.setup().agentKnowledge.value(u"embedded"_s).embedding.apiKey, key);
        QCOMPARE(noticesContaining(f.session, u"left out"_s), 0);
    }

    void retrievalBeforeATurnSearchesTheBasesOfTheAgentItStartsAs()
    {
        const QString directory = m_dir.filePath(u"knowledge-%1"_s.arg(m_count));
        const QString document = m_dir.filePath(u"refunds-%1.md"_s.arg(m_count));
        QVERIFY(Testing::writeFile(document, "# Refunds\n\nRefunds are approved by the finance lead.\n"));
        KnowledgeLibrary library(directory);
        QCOMPARE(library.add({u"handbook"_s, {document}, {}}), QString());
        QVERIFY(KnowledgeIndexer()
                    .run({u"handbook"_s, {document}}, library.databasePath(u"handbook"_s))
                    .errors.isEmpty());
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.knowledge = QStringList{u"handbook"_s};
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));
        Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));
        f.applier.setKnowledgeDirectory(directory);
        SessionSetup setup = f.session.setup();
        setup.retrieveBeforeTurn = true; // Settings → Knowledge: search before every turn
        f.session.apply(setup);
        QVERIFY(f.session.setup().knowledge.isEmpty()); // the session itself attaches none

        f.chooser.choose(u"billing"_s);
        QVERIFY(f.sendAndWait(u"Who approves refunds?"_s));
        QVERIFY2(lastSystemPrompt(f.server).contains(u"approved by the finance lead"_s),
                 qPrintable(lastSystemPrompt(f.server)));

        // The default agent searches the session's bases: none.
        f.chooser.choose(QString());
        QVERIFY(f.sendAndWait(u"Who approves refunds again?"_s));
        QVERIFY(!lastSystemPrompt(f.server).contains(u"finance lead"_s));
    }

    void aReopenedSessionComesBackWithItsAgentAndItsPrompt()
    {
        Transcript saved;
        {
            Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));
            f.chooser.choose(u"billing"_s);
            f.chooser.setSessionPrompt(u"Be brief."_s);
            QVERIFY(f.sendAndWait(u"hello"_s));
            saved = *TranscriptFile::parse(TranscriptFile::serialize(f.session.toTranscript())).transcript;
        }
        Fixture reopened(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));
        QCOMPARE(reopened.chooser.agentBox()->currentText(), u"Default"_s);

        QVERIFY(reopened.session.restore(saved));

        QCOMPARE(reopened.chooser.agentBox()->currentText(), u"billing"_s);
        QVERIFY(reopened.chooser.sessionPromptAction()->isChecked());
        QVERIFY(reopened.sendAndWait(u"again"_s));
        QCOMPARE(lastSystemPrompt(reopened.server), u"Be brief."_s);
        QCOMPARE(reopened.session.agentConfig().name, u"billing"_s);
    }

    void anAgentOnAProfileOfItsOwnIsAskedOnThatProfilesServer()
    {
        Fixture f(m_store.get(), m_dir.filePath(u"settings-%1.ini"_s.arg(m_count)));
        FakeHttpServer other;
        QVERIFY(other.listen());
        other.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"from the other one"_s, u"test-model"_s));
        });
        qputenv("LOOPSCOPE_TEST_OTHER_KEY", "sk-other-0123456789");
        f.profiles.save(openAiTestProfile(other.baseUrl(), u"Other"_s, u"LOOPSCOPE_TEST_OTHER_KEY"_s));
        AgentPreset billing = *m_store->roster().find(u"billing"_s);
        billing.provider = u"Other"_s;
        QString error;
        QVERIFY(m_store->save(u"billing"_s, billing, &error));

        f.chooser.choose(u"billing"_s);
        QTRY_VERIFY(f.session.setup().agentProviders.contains(u"Other"_s)); // its key read
        QVERIFY(f.sendAndWait(u"hello"_s));

        QCOMPARE(other.requests().size(), 1);
        QCOMPARE(other.requests().constFirst().header("authorization"), "Bearer sk-other-0123456789"_ba);
        QVERIFY(f.server.requests().isEmpty());
    }

private:
    static int noticesContaining(const ChatSession &session, const QString &text)
    {
        int count = 0;
        for (const ConversationRow &row : session.rows()->rows())
            count += row.kind == ConversationRow::Kind::Notice && row.text.contains(text);
        return count;
    }

    // A session on a fake server with the toolbar's chooser over the test's store.
    struct Fixture
    {
        Fixture(AgentStore *store, const QString &settingsPath, SecretStore *secrets = nullptr)
            : settings(settingsPath, QSettings::IniFormat)
            , profiles(&settings)
            , session(&network)
            , applier(&session, store, &profiles, secrets)
            , chooser(&session, store, &applier, &parent)
        {
            QVERIFY(server.listen());
            server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
                exchange.respondJson(200, openAiCompletion(u"answered"_s, u"test-model"_s));
            });
            SessionSetup setup = session.setup().withProvider(
                openAiTestProfile(server.baseUrl(), u"Local"_s, u"LOOPSCOPE_TEST_UNUSED_KEY"_s),
                u"sk-local"_s);
            setup.loop.model.stream = false;
            setup.loop.systemPrompt = u"The loop's prompt."_s;
            session.apply(setup);
        }

        bool sendAndWait(const QString &text)
        {
            QSignalSpy finished(session.agent(), &Agent::turnFinished);
            if (!session.send(text))
                return false;
            return finished.wait(10'000) || finished.size() == 1;
        }

        FakeHttpServer server;
        QSettings settings;
        ProviderProfileStore profiles;
        QNetworkAccessManager network;
        ChatSession session;
        AgentApplier applier;
        QWidget parent;
        AgentChooser chooser;
    };

    QTemporaryDir m_dir;
    int m_count = 0;
    std::unique_ptr<AgentStore> m_store;
};

QTEST_MAIN(AgentsWindowTest)
#include "tst_agentswindow.moc"
