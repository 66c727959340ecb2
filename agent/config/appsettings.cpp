#include "agent/config/appsettings.h"

#include "agent/debug/toolapprovalpolicy.h"
#include "agent/providers/providerprotocol.h"
#include "agent/tools/builtin/builtintools.h"

#include <QDir>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Keys, one place. A value equal to its default is removed rather than
// written, so a later release's better default reaches users who never
// changed it.
const QString MaxIterationsKey = u"loop/maxIterations"_s;
const QString MaxParallelToolsKey = u"loop/maxParallelTools"_s;
const QString MaxToolCallsKey = u"loop/maxToolCallsPerResponse"_s;
const QString PostLoopKey = u"loop/postLoop"_s;
const QString ToolTimeoutKey = u"loop/toolTimeoutMs"_s;
const QString TurnTimeLimitKey = u"loop/turnTimeLimitMs"_s;
const QString CompactionKey = u"loop/compaction"_s;
const QString CompactAtPercentKey = u"loop/compactAtPercent"_s;
const QString CompactionModelKey = u"loop/compactionModel"_s;
const QString CompactionPromptKey = u"loop/compactionPrompt"_s;
// The default agent's shields, as the JSON an agents file gives an agent's "shields".
const QString ShieldsKey = u"loop/shields"_s;
const QString SystemPromptKey = u"loop/systemPrompt"_s;
const QString ReadTimeoutKey = u"loop/providerReadTimeoutMs"_s;
const QString MaxResponseMbKey = u"loop/maxResponseMb"_s;
const QString RequestTimeoutSKey = u"loop/requestTimeoutS"_s;
const QString EnabledToolsKey = u"tools/enabled"_s;
const QString WorkspaceKey = u"tools/workspace"_s;
const QString ApprovalGroup = u"tools/approval"_s;
const QString ScopedApprovalsKey = u"tools/scopedApprovals"_s;
const QString FetchPrivateKey = u"tools/fetchAllowsPrivateAddresses"_s;
const QString SendOnEnterKey = u"composer/sendOnEnter"_s;
const QString ReopenLastSessionKey = u"startup/reopenLastSession"_s;
const QString KnowledgeRetrieveKey = u"knowledge/retrieve"_s; // "tool" or "auto", as run --retrieve

// A positive integer from the settings, or the fallback when absent or not one.
int positiveInt(const QSettings &settings, const QString &key, int fallback)
{
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    return ok && value > 0 ? value : fallback;
}

template<typename T>
void setOrRemove(QSettings &settings, const QString &key, const T &value, const T &fallback)
{
    if (value == fallback)
        settings.remove(key);
    else
        settings.setValue(key, value);
}

} // namespace

AppSettings::AppSettings(QSettings *settings)
    : m_settings(settings)
{
    Q_ASSERT(settings);
}

AgentConfig AppSettings::agentConfig() const
{
    const AgentConfig defaults;
    AgentConfig config;
    config.maxIterations = positiveInt(*m_settings, MaxIterationsKey, defaults.maxIterations);
    config.maxParallelTools = positiveInt(*m_settings, MaxParallelToolsKey, defaults.maxParallelTools);
    config.maxToolCallsPerResponse
        = std::min(positiveInt(*m_settings, MaxToolCallsKey, defaults.maxToolCallsPerResponse),
                   AgentConfig::MaxToolCallsLimit);
    config.toolTimeoutMs = positiveInt(*m_settings, ToolTimeoutKey, defaults.toolTimeoutMs);
    config.turnTimeLimitMs = positiveInt(*m_settings, TurnTimeLimitKey, defaults.turnTimeLimitMs);
    config.postLoop
        = postLoopModeFromName(m_settings->value(PostLoopKey).toString()).value_or(defaults.postLoop);
    config.systemPrompt = m_settings->value(SystemPromptKey, defaults.systemPrompt).toString();
    config.compaction = compactionStrategyFromName(m_settings->value(CompactionKey).toString())
                            .value_or(defaults.compaction);
    config.compactAtPercent
        = std::min(positiveInt(*m_settings, CompactAtPercentKey, defaults.compactAtPercent), 100);
    config.compactionModel = m_settings->value(CompactionModelKey, defaults.compactionModel).toString();
    config.compactionPrompt = m_settings->value(CompactionPromptKey, defaults.compactionPrompt).toString();
    if (config.compactionPrompt.trimmed().isEmpty())
        config.compactionPrompt = defaults.compactionPrompt;
    QString ignored; // shields saved by another version that this one cannot read: none rather than half
    if (const QByteArray shields = m_settings->value(ShieldsKey).toByteArray(); !shields.isEmpty())
        config.shields = AgentShields::fromJson(shields, &ignored).value_or(AgentShields());
    return config;
}

void AppSettings::setAgentConfig(const AgentConfig &config)
{
    const AgentConfig defaults;
    setOrRemove(*m_settings, MaxIterationsKey, config.maxIterations, defaults.maxIterations);
    setOrRemove(*m_settings, MaxParallelToolsKey, config.maxParallelTools, defaults.maxParallelTools);
    setOrRemove(*m_settings, MaxToolCallsKey, config.maxToolCallsPerResponse,
                defaults.maxToolCallsPerResponse);
    setOrRemove(*m_settings, ToolTimeoutKey, config.toolTimeoutMs, defaults.toolTimeoutMs);
    setOrRemove(*m_settings, TurnTimeLimitKey, config.turnTimeLimitMs, defaults.turnTimeLimitMs);
    setOrRemove(*m_settings, PostLoopKey, postLoopModeName(config.postLoop),
                postLoopModeName(defaults.postLoop));
    setOrRemove(*m_settings, SystemPromptKey, config.systemPrompt, defaults.systemPrompt);
    setOrRemove(*m_settings, CompactionKey, compactionStrategyName(config.compaction),
                compactionStrategyName(defaults.compaction));
    setOrRemove(*m_settings, CompactAtPercentKey, config.compactAtPercent, defaults.compactAtPercent);
    setOrRemove(*m_settings, CompactionModelKey, config.compactionModel, defaults.compactionModel);
    setOrRemove(*m_settings, CompactionPromptKey, config.compactionPrompt, defaults.compactionPrompt);
    if (config.shields.isEmpty())
        m_settings->remove(ShieldsKey);
    else
        m_settings->setValue(
            ShieldsKey,
            QString::fromUtf8(QJsonDocument(config.shields.toJson()).toJson(QJsonDocument::Compact)));
}

int AppSettings::providerReadTimeoutMs() const
{
    return positiveInt(*m_settings, ReadTimeoutKey, ProviderEndpoint().readTimeoutMs);
}

void AppSettings::setProviderReadTimeoutMs(int milliseconds)
{
    setOrRemove(*m_settings, ReadTimeoutKey, milliseconds, ProviderEndpoint().readTimeoutMs);
}

ResponseLimits AppSettings::responseLimits() const
{
    ResponseLimits limits;
    constexpr int defaultMb = int(ResponseLimits::DefaultMaxResponseBytes / ResponseLimits::MegaByte);
    limits.maxResponseBytes
        = positiveInt(*m_settings, MaxResponseMbKey, defaultMb) * ResponseLimits::MegaByte;
    limits.requestTimeoutMs
        = positiveInt(*m_settings, RequestTimeoutSKey, ResponseLimits::DefaultRequestTimeoutMs / 1000) * 1000;
    return limits;
}

void AppSettings::setResponseLimits(const ResponseLimits &limits)
{
    const ResponseLimits defaults;
    setOrRemove(*m_settings, MaxResponseMbKey, int(limits.maxResponseBytes / ResponseLimits::MegaByte),
                int(defaults.maxResponseBytes / ResponseLimits::MegaByte));
    setOrRemove(*m_settings, RequestTimeoutSKey, limits.requestTimeoutMs / 1000,
                defaults.requestTimeoutMs / 1000);
}

QStringList AppSettings::enabledTools() const
{
    if (!m_settings->contains(EnabledToolsKey))
        return builtinToolNames();
    // An empty list may come back as one empty string; an ini edited by hand may hold blanks.
    QStringList names = m_settings->value(EnabledToolsKey).toStringList();
    names.removeAll(QString());
    return names;
}

void AppSettings::setEnabledTools(const QStringList &names)
{
    // "All of them" is kept as the absence of the key, so a tool added later is on too.
    QStringList sorted = names;
    sorted.sort();
    QStringList all = builtinToolNames();
    all.sort();
    if (sorted == all)
        m_settings->remove(EnabledToolsKey);
    else
        m_settings->setValue(EnabledToolsKey, names);
}

QString AppSettings::workspaceFolder() const
{
    const QString path = m_settings->value(WorkspaceKey).toString();
    return path.isEmpty() ? defaultWorkspaceFolder() : path;
}

void AppSettings::setWorkspaceFolder(const QString &path)
{
    const QString fallback = defaultWorkspaceFolder();
    setOrRemove(*m_settings, WorkspaceKey, path.isEmpty() ? fallback : path, fallback);
}

bool AppSettings::workspaceChosen() const
{
    return !m_settings->value(WorkspaceKey).toString().isEmpty();
}

QString AppSettings::defaultWorkspaceFolder()
{
    // Documents is the user's own files; Qt names $HOME/Documents even where no such folder exists yet.
    QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (documents.isEmpty())
        documents = QDir::homePath();
    return QDir(documents).filePath(u"Loopscope"_s);
}

bool AppSettings::fetchAllowsPrivateAddresses() const
{
    return m_settings->value(FetchPrivateKey, false).toBool();
}

void AppSettings::setFetchAllowsPrivateAddresses(bool allowed)
{
    setOrRemove(*m_settings, FetchPrivateKey, allowed, false);
}

QHash<QString, QString> AppSettings::toolApprovalRules() const
{
    QHash<QString, QString> rules;
    m_settings->beginGroup(ApprovalGroup);
    const QStringList tools = m_settings->childKeys();
    for (const QString &tool : tools) {
        const QString rule = m_settings->value(tool).toString();
        if (ToolApprovalPolicy::ruleFromName(rule)) // a mistyped rule is ignored, not guessed at
            rules.insert(tool, rule);
    }
    m_settings->endGroup();
    return rules;
}

void AppSettings::setToolApprovalRules(const QHash<QString, QString> &rules)
{
    m_settings->remove(ApprovalGroup);
    m_settings->beginGroup(ApprovalGroup);
    for (auto it = rules.cbegin(); it != rules.cend(); ++it) {
        // A name with a slash would become a subgroup and never read back.
        if (!it.key().isEmpty() && !it.key().contains(u'/') && ToolApprovalPolicy::ruleFromName(it.value()))
            m_settings->setValue(it.key(), it.value());
    }
    m_settings->endGroup();
}

QList<ScopedApproval> AppSettings::scopedApprovals() const
{
    QList<ScopedApproval> approvals;
    const int count = m_settings->beginReadArray(ScopedApprovalsKey);
    for (int i = 0; i < count; ++i) {
        m_settings->setArrayIndex(i);
        const QString tool = m_settings->value(u"tool"_s).toString();
        const auto kind = ApprovalScope::kindFromName(m_settings->value(u"scope"_s).toString());
        const QString value = m_settings->value(u"value"_s).toString();
        // An entry this version cannot read is left out, not widened to the whole tool.
        if (tool.isEmpty() || !kind || *kind == ApprovalScope::Kind::Tool || value.isEmpty())
            continue;
        const ScopedApproval approval{tool, {*kind, value}};
        if (!approvals.contains(approval))
            approvals.append(approval);
    }
    m_settings->endArray();
    return approvals;
}

void AppSettings::setScopedApprovals(const QList<ScopedApproval> &approvals)
{
    m_settings->remove(ScopedApprovalsKey);
    if (approvals.isEmpty())
        return;
    m_settings->beginWriteArray(ScopedApprovalsKey, int(approvals.size()));
    for (int i = 0; i < approvals.size(); ++i) {
        m_settings->setArrayIndex(i);
        m_settings->setValue(u"tool"_s, approvals.at(i).tool);
        m_settings->setValue(u"scope"_s, ApprovalScope::kindName(approvals.at(i).scope.kind));
        m_settings->setValue(u"value"_s, approvals.at(i).scope.value);
    }
    m_settings->endArray();
}

bool AppSettings::sendOnEnter() const
{
    return m_settings->value(SendOnEnterKey, false).toBool();
}

void AppSettings::setSendOnEnter(bool enabled)
{
    setOrRemove(*m_settings, SendOnEnterKey, enabled, false);
}

bool AppSettings::reopenLastSession() const
{
    return m_settings->value(ReopenLastSessionKey, true).toBool();
}

void AppSettings::setReopenLastSession(bool enabled)
{
    setOrRemove(*m_settings, ReopenLastSessionKey, enabled, true);
}

bool AppSettings::retrieveKnowledgeBeforeTurn() const
{
    return m_settings->value(KnowledgeRetrieveKey, u"tool"_s).toString() == u"auto";
}

void AppSettings::setRetrieveKnowledgeBeforeTurn(bool enabled)
{
    if (enabled)
        m_settings->setValue(KnowledgeRetrieveKey, u"auto"_s);
    else
        m_settings->remove(KnowledgeRetrieveKey);
}

} // namespace Loopscope
