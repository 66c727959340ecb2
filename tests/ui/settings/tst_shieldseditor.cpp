#include "ui/settings/shieldseditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::AgentShields)

namespace {

AgentShields everyKindOfShield()
{
    AgentShields shields;
    shields.rules = {RuleShield::Rule{.pattern = u"password"_s},
                     RuleShield::Rule{RuleShield::Rule::Kind::RegularExpression,
                                      u"sk-[A-Za-z0-9]{8,}"_s,
                                      {ShieldStage::ToolCall, ShieldStage::Output},
                                      {u"fetch_url"_s, u"run_command"_s},
                                      u"No keys."_s}};
    ModelShield guard;
    guard.name = u"company guard"_s;
    guard.provider = u"Local Ollama"_s;
    guard.model = u"llama-guard3:8b"_s;
    guard.stages = {ShieldStage::Input};
    guard.promptTemplate = u"Judge the {role}: {conversation}"_s;
    guard.unclear = ModelShield::Unclear::Allow;
    shields.model = guard;
    return shields;
}

} // namespace

class ShieldsEditorTest : public QObject
{
    Q_OBJECT

private slots:
    void whatItShowsIsWhatItReturns_data()
    {
        QTest::addColumn<AgentShields>("shields");

        QTest::newRow("no shield") << AgentShields();
        QTest::newRow("rules only") << AgentShields{everyKindOfShield().rules, std::nullopt};
        QTest::newRow("the default model shield") << AgentShields{{}, ModelShield()};
        QTest::newRow("every kind of shield") << everyKindOfShield();
    }

    void whatItShowsIsWhatItReturns()
    {
        QFETCH(AgentShields, shields);
        Ui::ShieldsEditor editor;

        editor.setShields(shields);

        QCOMPARE(editor.shields(), shields);
        QCOMPARE(editor.problem(), QString());
    }

    void theModelShieldsProviderIsOneOfTheSavedProfilesOrTheConversations()
    {
        Ui::ShieldsEditor editor;
        editor.setProfileNames({u"OpenAI"_s, u"Local Ollama"_s});
        editor.setShields({{}, ModelShield()});
        auto *provider = editor.findChild<QComboBox *>(u"modelShieldProviderCombo"_s);
        QVERIFY(provider);
        QCOMPARE(provider->count(), 3);
        QCOMPARE(provider->currentIndex(), 0); // the conversation's own provider
        QCOMPARE(editor.shields().model->provider, QString());
        QSignalSpy changed(&editor, &Ui::ShieldsEditor::changed);

        provider->setCurrentIndex(provider->findText(u"Local Ollama"_s));

        QCOMPARE(changed.size(), 1);
        QCOMPARE(editor.shields().model->provider, u"Local Ollama"_s);
        // A profile since deleted is shown as such and kept, not silently replaced by another.
        ModelShield gone;
        gone.provider = u"Gone"_s;
        editor.setShields({{}, gone});
        QCOMPARE(provider->currentText(), u"Gone (no such profile)"_s);
        QCOMPARE(editor.shields().model->provider, u"Gone"_s);
        // The list of profiles may come again (the settings reopened): the choice stays.
        editor.setShields({{}, everyKindOfShield().model});
        editor.setProfileNames({u"Local Ollama"_s});
        QCOMPARE(editor.shields().model->provider, u"Local Ollama"_s);
        QCOMPARE(provider->currentText(), u"Local Ollama"_s);
    }

    void aRuleAddedInTheTableIsReturned()
    {
        Ui::ShieldsEditor editor;
        QSignalSpy changed(&editor, &Ui::ShieldsEditor::changed);
        auto *table = editor.findChild<QTableWidget *>(u"shieldRulesTable"_s);
        editor.findChild<QPushButton *>(u"addShieldRuleButton"_s)->click();
        QCOMPARE(table->rowCount(), 1);
        // A new row that is still empty is no rule.
        QVERIFY(editor.shields().rules.isEmpty());

        table->item(0, 0)->setText(u"secret"_s);
        table->item(0, 2)->setCheckState(Qt::Unchecked); // not on the question

        QVERIFY(!changed.isEmpty());
        const QList<RuleShield::Rule> expected{
            RuleShield::Rule{.pattern = u"secret"_s, .stages = {ShieldStage::ToolCall, ShieldStage::Output}}};
        QCOMPARE(editor.shields().rules, expected);
    }

    void whatCannotBeStoredIsNamed_data()
    {
        QTest::addColumn<AgentShields>("shields");
        QTest::addColumn<QString>("problem");

        AgentShields badPattern{
            {RuleShield::Rule{.kind = RuleShield::Rule::Kind::RegularExpression, .pattern = u"(open"_s}},
            std::nullopt};
        QTest::newRow("a pattern that does not compile")
            << badPattern << u"Rule 1: Invalid regular expression \"(open\""_s;
        AgentShields noStage{{RuleShield::Rule{.pattern = u"x"_s, .stages = {}}}, std::nullopt};
        QTest::newRow("a rule on no stage") << noStage << u"Rule 1 (\"x\") looks at no stage"_s;
        ModelShield blind;
        blind.stages = {};
        QTest::newRow("a model shield that checks nothing")
            << AgentShields{{}, blind} << u"The model shield checks nothing"_s;
        ModelShield noConversation;
        noConversation.promptTemplate = u"Is it safe?"_s;
        QTest::newRow("a prompt without the conversation")
            << AgentShields{{}, noConversation} << u"must contain {conversation}"_s;
    }

    void whatCannotBeStoredIsNamed()
    {
        QFETCH(AgentShields, shields);
        QFETCH(QString, problem);
        Ui::ShieldsEditor editor;

        editor.setShields(shields);

        QVERIFY2(editor.problem().contains(problem), qPrintable(editor.problem()));
    }

    void theDefaultPromptCanBeRestored()
    {
        Ui::ShieldsEditor editor;
        ModelShield edited;
        edited.promptTemplate = u"Mine: {conversation}"_s;
        editor.setShields({{}, edited});

        editor.findChild<QPushButton *>(u"modelShieldDefaultTemplateButton"_s)->click();

        QCOMPARE(editor.shields().model->promptTemplate, ModelShield::defaultTemplate());
    }

    void turningTheModelShieldOffReturnsNone()
    {
        Ui::ShieldsEditor editor;
        editor.setShields({{}, ModelShield()});

        editor.findChild<QCheckBox *>(u"modelShieldCheck"_s)->setChecked(false);

        QVERIFY(!editor.shields().model);
        QVERIFY(!editor.findChild<QPlainTextEdit *>(u"modelShieldTemplateEdit"_s)->isEnabled());
    }
};

QTEST_MAIN(ShieldsEditorTest)
#include "tst_shieldseditor.moc"
