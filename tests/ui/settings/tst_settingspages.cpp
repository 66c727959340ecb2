// The settings dialog's pages on their own: each shows what is stored and
// stores what it shows.

#include "agent/config/appsettings.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/tools/builtin/builtintools.h"
#include "ui/settings/appearancepage.h"
#include "ui/settings/looppage.h"
#include "ui/settings/toolspage.h"

#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

enum class PageKind { Loop, Tools, Appearance };

std::unique_ptr<Ui::SettingsPage> createPage(PageKind kind)
{
    switch (kind) {
    case PageKind::Loop: return std::make_unique<Ui::LoopPage>();
    case PageKind::Tools: return std::make_unique<Ui::ToolsPage>();
    case PageKind::Appearance: return std::make_unique<Ui::AppearancePage>();
    }
    return {};
}

// The values a page covers, comparable. The Loop page's timeouts are left out: one untouched keeps
// the value it saves over (see untouchedTimeoutsKeepTheValueTheyAreSavedOver()); so are the rules of
// tools that are not built in, which the Tools page keeps as they are.
QVariantList valuesOf(PageKind kind, const AppSettings &settings)
{
    switch (kind) {
    case PageKind::Loop: {
        const AgentConfig config = settings.agentConfig();
        const ResponseLimits limits = settings.responseLimits();
        return {config.maxIterations,   config.maxParallelTools, postLoopModeName(config.postLoop),
                config.systemPrompt,    limits.maxResponseBytes, limits.requestTimeoutMs,
                config.shields.toJson()};
    }
    case PageKind::Tools: {
        // A built-in tool's rule as it acts: without one of the user's, the tool's own default.
        QVariantHash rules;
        const QHash<QString, QString> stored = settings.toolApprovalRules();
        for (const QString &name : builtinToolNames()) {
            const auto tool = createBuiltinTool(name, Workspace());
            const auto fallback = tool && tool->behaviour().asksFirst ? ToolApprovalPolicy::Rule::Ask
                                                                      : ToolApprovalPolicy::Rule::Always;
            rules.insert(name, stored.value(name, ToolApprovalPolicy::ruleName(fallback)));
        }
        QStringList scoped;
        for (const ScopedApproval &approval : settings.scopedApprovals())
            scoped << approval.tool + u' ' + approval.scope.describe();
        return {settings.enabledTools(), rules, scoped, settings.workspaceFolder(),
                settings.fetchAllowsPrivateAddresses()};
    }
    case PageKind::Appearance: return {settings.sendOnEnter(), settings.reopenLastSession()};
    }
    return {};
}

using Seed = std::function<void(AppSettings &, const QString &folder)>;

} // namespace

Q_DECLARE_METATYPE(PageKind)
Q_DECLARE_METATYPE(Seed)

class SettingsPagesTest : public QObject
{
    Q_OBJECT

private slots:
    void aPageStoresWhatItLoaded_data()
    {
        QTest::addColumn<PageKind>("kind");
        QTest::addColumn<Seed>("seed");
        const auto always = ToolApprovalPolicy::ruleName(ToolApprovalPolicy::Rule::Always);
        const auto never = ToolApprovalPolicy::ruleName(ToolApprovalPolicy::Rule::Never);
        const auto ask = ToolApprovalPolicy::ruleName(ToolApprovalPolicy::Rule::Ask);

        QTest::newRow("the loop page, with the defaults")
            << PageKind::Loop << Seed([](AppSettings &, auto) {});
        QTest::newRow("the loop page, with every limit changed")
            << PageKind::Loop << Seed([](AppSettings &settings, auto) {
                   AgentConfig config = settings.agentConfig();
                   config.maxIterations = 17;
                   config.maxParallelTools = 1;
                   config.postLoop = PostLoopMode::Summary;
                   config.systemPrompt = u"Answer in French.\nBe brief."_s;
                   settings.setAgentConfig(config);
                   ResponseLimits limits;
                   limits.maxResponseBytes = 8 * ResponseLimits::MegaByte;
                   limits.requestTimeoutMs = 90'000;
                   settings.setResponseLimits(limits);
               });
        QTest::newRow("the loop page, with shields")
            << PageKind::Loop << Seed([](AppSettings &settings, auto) {
                   AgentConfig config = settings.agentConfig();
                   config.shields.rules = {RuleShield::Rule{.pattern = u"password"_s},
                                           RuleShield::Rule{RuleShield::Rule::Kind::RegularExpression,
                                                            u"rm\\s+-rf"_s,
                                                            {ShieldStage::ToolCall},
                                                            {u"run_command"_s},
                                                            u"No recursive deletes."_s}};
                   ModelShield guard;
                   guard.model = u"llama-guard3:1b"_s;
                   guard.stages = {ShieldStage::Output};
                   guard.unclear = ModelShield::Unclear::Allow;
                   config.shields.model = guard;
                   settings.setAgentConfig(config);
               });
        QTest::newRow("the loop page, when the loop ends with nothing")
            << PageKind::Loop << Seed([](AppSettings &settings, auto) {
                   AgentConfig config = settings.agentConfig();
                   config.postLoop = PostLoopMode::None;
                   settings.setAgentConfig(config);
               });
        QTest::newRow("the tools page, with the defaults")
            << PageKind::Tools << Seed([](AppSettings &, auto) {});
        QTest::newRow("the tools page, with rules, a workspace and private addresses")
            << PageKind::Tools << Seed([always, never, ask](AppSettings &settings, const QString &folder) {
                   settings.setEnabledTools({u"calculator"_s, u"read_file"_s, u"run_command"_s});
                   settings.setToolApprovalRules({{u"calculator"_s, always},
                                                  {u"read_file"_s, never},
                                                  {u"run_command"_s, ask},
                                                  {u"some_mcp_tool"_s, never}});
                   settings.setScopedApprovals(
                       {{u"run_command"_s, {ApprovalScope::Kind::CommandPrefix, u"git status"_s}},
                        {u"fetch_url"_s, {ApprovalScope::Kind::Host, u"example.com"_s}}});
                   settings.setWorkspaceFolder(folder);
                   settings.setFetchAllowsPrivateAddresses(true);
               });
        QTest::newRow("the tools page, with no tool enabled")
            << PageKind::Tools << Seed([](AppSettings &settings, auto) { settings.setEnabledTools({}); });
        QTest::newRow("the appearance page, both on")
            << PageKind::Appearance << Seed([](AppSettings &settings, auto) {
                   settings.setSendOnEnter(true);
                   settings.setReopenLastSession(true);
               });
        QTest::newRow("the appearance page, both off")
            << PageKind::Appearance << Seed([](AppSettings &settings, auto) {
                   settings.setSendOnEnter(false);
                   settings.setReopenLastSession(false);
               });
    }

    void aPageStoresWhatItLoaded()
    {
        QFETCH(PageKind, kind);
        QFETCH(Seed, seed);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QSettings sourceFile(dir.filePath(u"source.ini"_s), QSettings::IniFormat);
        AppSettings source(&sourceFile);
        seed(source, dir.path());
        // Another file, its values different from the seeded ones where the page covers them.
        QSettings targetFile(dir.filePath(u"target.ini"_s), QSettings::IniFormat);
        AppSettings target(&targetFile);
        AgentConfig other = target.agentConfig();
        other.maxIterations = 3;
        other.maxParallelTools = 9;
        other.postLoop = PostLoopMode::Reflect;
        other.systemPrompt = u"Something else"_s;
        target.setAgentConfig(other);
        ResponseLimits otherLimits;
        otherLimits.maxResponseBytes = 2 * ResponseLimits::MegaByte;
        otherLimits.requestTimeoutMs = 45'000;
        target.setResponseLimits(otherLimits);
        target.setEnabledTools({u"current_time"_s});
        target.setScopedApprovals({{u"read_file"_s, {ApprovalScope::Kind::Folder, QDir::rootPath()}}});
        target.setSendOnEnter(!source.sendOnEnter());
        target.setReopenLastSession(!source.reopenLastSession());

        const std::unique_ptr<Ui::SettingsPage> page = createPage(kind);
        page->load(source);
        QCOMPARE(page->validationError(), QString());
        page->save(target);
        QCOMPARE(valuesOf(kind, target), valuesOf(kind, source));
        // And what it stored, it shows again.
        const std::unique_ptr<Ui::SettingsPage> again = createPage(kind);
        again->load(target);
        QSettings thirdFile(dir.filePath(u"third.ini"_s), QSettings::IniFormat);
        AppSettings third(&thirdFile);
        again->save(third);
        QCOMPARE(valuesOf(kind, third), valuesOf(kind, source));
    }

    void untouchedTimeoutsKeepTheValueTheyAreSavedOver()
    {
        QTemporaryDir dir;
        QSettings file(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&file);
        AgentConfig config = settings.agentConfig();
        config.toolTimeoutMs = 45'400;  // shown as 45 s
        config.turnTimeLimitMs = 2'600; // shown as 3 s
        settings.setAgentConfig(config);
        settings.setProviderReadTimeoutMs(90'600); // shown as 91 s
        Ui::LoopPage page;
        page.load(settings);
        page.save(settings);
        QCOMPARE(settings.agentConfig().toolTimeoutMs, 45'400);
        QCOMPARE(settings.agentConfig().turnTimeLimitMs, 2'600);
        QCOMPARE(settings.providerReadTimeoutMs(), 90'600);
        QCOMPARE(page.readTimeoutMs(), 91'000);
        QCOMPARE(page.findChild<QSpinBox *>(u"turnTimeLimitSpin"_s)->value(), 3);

        page.findChild<QSpinBox *>(u"toolTimeoutSpin"_s)->setValue(30);
        page.findChild<QSpinBox *>(u"readTimeoutSpin"_s)->setValue(120);
        page.findChild<QSpinBox *>(u"turnTimeLimitSpin"_s)->setValue(600);
        page.save(settings);
        QCOMPARE(settings.agentConfig().toolTimeoutMs, 30'000);
        QCOMPARE(settings.providerReadTimeoutMs(), 120'000);
        QCOMPARE(settings.agentConfig().turnTimeLimitMs, 600'000);

        // 0 is "None": no limit, and the stored value goes.
        page.findChild<QSpinBox *>(u"turnTimeLimitSpin"_s)->setValue(0);
        page.save(settings);
        QCOMPARE(settings.agentConfig().turnTimeLimitMs, 0);
        QVERIFY(!file.contains(u"loop/turnTimeLimitMs"_s));
    }

    void theToolsPageNamesAWorkspaceThatDoesNotExist()
    {
        QTemporaryDir dir;
        QSettings file(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&file);
        Ui::ToolsPage page;
        page.load(settings);
        QCOMPARE(page.validationError(), QString());
        const QString missing = dir.filePath(u"not-there"_s);
        page.findChild<QLineEdit *>(u"workspaceEdit"_s)->setText(QDir::toNativeSeparators(missing));
        QVERIFY2(page.validationError().contains(QDir::toNativeSeparators(missing)),
                 qPrintable(page.validationError()));
        page.findChild<QLineEdit *>(u"workspaceEdit"_s)->setText(QDir::toNativeSeparators(dir.path()));
        QCOMPARE(page.validationError(), QString());
        page.save(settings);
        QCOMPARE(settings.workspaceFolder(), dir.path());
    }
};

QTEST_MAIN(SettingsPagesTest)
#include "tst_settingspages.moc"
