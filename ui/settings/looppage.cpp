#include "ui/settings/looppage.h"

#include "agent/config/appsettings.h"
#include "ui/settings/settingswidgets.h"
#include "ui/settings/shieldseditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

LoopPage::LoopPage(QWidget *parent)
    : SettingsPage(parent)
    , m_maxIterations(named(new QSpinBox(this), u"maxIterationsSpin"_s, tr("Maximum iterations")))
    , m_parallelTools(named(new QSpinBox(this), u"parallelToolsSpin"_s, tr("Parallel tool calls")))
    , m_maxToolCalls(
          named(new QSpinBox(this), u"maxToolCallsSpin"_s, tr("Tool calls one response may have run")))
    , m_postLoop(named(new QComboBox(this), u"postLoopCombo"_s, tr("When the loop ends without an answer")))
    , m_toolTimeout(named(new QSpinBox(this), u"toolTimeoutSpin"_s, tr("Tool timeout in seconds")))
    , m_turnTimeLimit(named(new QSpinBox(this), u"turnTimeLimitSpin"_s, tr("Turn time limit in seconds")))
    , m_readTimeout(named(new QSpinBox(this), u"readTimeoutSpin"_s, tr("Provider read timeout in seconds")))
    , m_maxResponse(named(new QSpinBox(this), u"maxResponseSpin"_s, tr("Response size limit in megabytes")))
    , m_requestTimeout(
          named(new QSpinBox(this), u"requestTimeoutSpin"_s, tr("Request time limit in seconds")))
    , m_compaction(named(new QComboBox(this), u"compactionCombo"_s,
                         tr("When a request would fill the context window")))
    , m_compactAt(named(new QSpinBox(this), u"compactAtSpin"_s, tr("Compact at this share of the window")))
    , m_compactionModel(
          named(new QLineEdit(this), u"compactionModelEdit"_s, tr("Model that writes summaries")))
    , m_compactionPrompt(named(new QPlainTextEdit(this), u"compactionPromptEdit"_s,
                               tr("What the model is asked when it summarises")))
    , m_systemPrompt(named(new QPlainTextEdit(this), u"systemPromptEdit"_s, tr("System prompt")))
    , m_shields(named(new ShieldsEditor(this), u"shieldsEditor"_s, tr("Shields")))
{
    m_maxIterations->setRange(1, 1000);
    m_maxIterations->setToolTip(tr("Model calls in one turn before the loop must answer."));

    m_parallelTools->setRange(1, 64);
    m_parallelTools->setToolTip(tr("1 runs a response's tool calls one after another."));

    m_maxToolCalls->setRange(1, AgentConfig::MaxToolCallsLimit);
    m_maxToolCalls->setGroupSeparatorShown(true);
    m_maxToolCalls->setToolTip(
        tr("Calls of one response past this many are not run; the model is told why."));

    m_postLoop->addItem(tr("Reflect: one more model call, without tools"),
                        postLoopModeName(PostLoopMode::Reflect));
    m_postLoop->addItem(tr("Summary: list what the tools returned"), postLoopModeName(PostLoopMode::Summary));
    m_postLoop->addItem(tr("Nothing: say that the loop stopped"), postLoopModeName(PostLoopMode::None));

    m_compaction->addItem(tr("Trim old tool results, then summarise, then leave out the oldest turns"),
                          compactionStrategyName(CompactionStrategy::Auto));
    m_compaction->addItem(tr("Trim old tool results only"),
                          compactionStrategyName(CompactionStrategy::TrimToolResults));
    m_compaction->addItem(tr("Summarise older turns only"),
                          compactionStrategyName(CompactionStrategy::Summarise));
    m_compaction->addItem(tr("Leave out the oldest turns only"),
                          compactionStrategyName(CompactionStrategy::DropOldest));
    m_compaction->addItem(tr("Nothing: refuse a request that does not fit"),
                          compactionStrategyName(CompactionStrategy::Off));
    m_compaction->setToolTip(tr("The conversation keeps every message; only what the requests carry changes, "
                                "and the trace shows each compaction."));
    m_compactAt->setRange(1, 100);
    m_compactAt->setSuffix(tr(" % of the context window"));

    m_toolTimeout->setRange(1, 86'400);
    m_toolTimeout->setSuffix(tr(" s"));

    m_turnTimeLimit->setRange(0, 86'400);
    m_turnTimeLimit->setSuffix(tr(" s"));
    m_turnTimeLimit->setSpecialValueText(tr("None"));
    m_turnTimeLimit->setToolTip(tr("How long one turn may take, not counting the time it waits for you (an "
                                   "approval, a breakpoint); then it stops and says so."));

    m_readTimeout->setRange(1, 86'400);
    m_readTimeout->setSuffix(tr(" s"));
    m_readTimeout->setToolTip(tr("How long a provider may stay silent in the middle of an answer before the "
                                 "call fails."));

    m_maxResponse->setRange(1, 65'536);
    m_maxResponse->setSuffix(tr(" MB"));
    m_maxResponse->setToolTip(
        tr("The most one answer from a provider or an MCP server may hold; a larger one "
           "fails the call."));

    m_requestTimeout->setRange(1, 604'800);
    m_requestTimeout->setSuffix(tr(" s"));
    m_requestTimeout->setToolTip(
        tr("How long one provider request may take in all, however steadily it streams."));

    m_compactionModel->setPlaceholderText(tr("The conversation's own model"));
    m_compactionModel->setToolTip(
        tr("A summary is a model call on the session's provider; a smaller, cheaper "
           "model of the same provider can write it."));
    m_compactionPrompt->setTabChangesFocus(true);
    m_compactionPrompt->setMaximumHeight(m_compactionPrompt->fontMetrics().lineSpacing() * 5);
    m_compactionPrompt->setToolTip(tr("The system instruction of the summary's model call. The turns to "
                                      "summarise follow as one user message."));

    m_systemPrompt->setTabChangesFocus(true);
    m_systemPrompt->setPlaceholderText(tr("Optional instructions the model gets before every conversation."));

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Maximum iterations:"), m_maxIterations);
    form->addRow(tr("&Parallel tool calls:"), m_parallelTools);
    form->addRow(tr("Tool ca&lls per response:"), m_maxToolCalls);
    form->addRow(tr("When the loop &ends:"), m_postLoop);
    form->addRow(tr("When the conte&xt fills:"), m_compaction);
    form->addRow(tr("Compact &at:"), m_compactAt);
    form->addRow(tr("Summary m&odel:"), m_compactionModel);
    form->addRow(tr("S&ummary prompt:"), m_compactionPrompt);
    form->addRow(tr("Tool &timeout:"), m_toolTimeout);
    // No mnemonic: every letter of it is taken on this page (the shields editor's included).
    form->addRow(tr("Turn time limit:"), m_turnTimeLimit);
    form->addRow(tr("Provider &read timeout:"), m_readTimeout);
    form->addRow(tr("Response si&ze limit:"), m_maxResponse);
    form->addRow(tr("Re&quest time limit:"), m_requestTimeout);
    form->addRow(tr("&System prompt:"), m_systemPrompt);
    //: Settings → Loop: the rule and model shields of the conversation's own agent
    auto *shields = new QGroupBox(tr("Shields"), this);
    auto *shieldsLayout = new QVBoxLayout(shields);
    shieldsLayout->addWidget(
        hintLabel(tr("Checks on the question, each tool call's arguments and the answer; a blocked step is "
                     "explained in the chat and the trace. An agent of an agents file uses its own."),
                  shields));
    shieldsLayout->addWidget(m_shields);
    form->addRow(shields);
}

QString LoopPage::validationError() const
{
    return m_shields->problem();
}

void LoopPage::focusProblem()
{
    m_shields->focusProblem();
}

void LoopPage::load(const AppSettings &settings)
{
    const AgentConfig config = settings.agentConfig();
    m_maxIterations->setValue(config.maxIterations);
    m_parallelTools->setValue(config.maxParallelTools);
    m_maxToolCalls->setValue(config.maxToolCallsPerResponse);
    m_postLoop->setCurrentIndex(qMax(0, m_postLoop->findData(postLoopModeName(config.postLoop))));
    m_compaction->setCurrentIndex(qMax(0, m_compaction->findData(compactionStrategyName(config.compaction))));
    m_compactAt->setValue(config.compactAtPercent);
    m_compactionModel->setText(config.compactionModel);
    m_compactionPrompt->setPlainText(config.compactionPrompt);
    m_loadedToolTimeoutS = qMax(1, (config.toolTimeoutMs + 500) / 1000);
    m_toolTimeout->setValue(m_loadedToolTimeoutS);
    m_loadedTurnTimeLimitS = (config.turnTimeLimitMs + 500) / 1000;
    m_turnTimeLimit->setValue(m_loadedTurnTimeLimitS);
    m_loadedReadTimeoutS = qMax(1, (settings.providerReadTimeoutMs() + 500) / 1000);
    m_readTimeout->setValue(m_loadedReadTimeoutS);
    const ResponseLimits limits = settings.responseLimits();
    m_maxResponse->setValue(int(limits.maxResponseBytes / ResponseLimits::MegaByte));
    m_requestTimeout->setValue(limits.requestTimeoutMs / 1000);
    m_systemPrompt->setPlainText(config.systemPrompt);
    m_shields->setShields(config.shields);
}

void LoopPage::save(AppSettings &settings)
{
    // A timeout whose field was not touched keeps its exact stored value.
    AgentConfig config = settings.agentConfig();
    config.maxIterations = m_maxIterations->value();
    config.maxParallelTools = m_parallelTools->value();
    config.maxToolCallsPerResponse = m_maxToolCalls->value();
    config.postLoop = postLoopModeFromName(m_postLoop->currentData().toString()).value_or(config.postLoop);
    config.compaction
        = compactionStrategyFromName(m_compaction->currentData().toString()).value_or(config.compaction);
    config.compactAtPercent = m_compactAt->value();
    config.compactionModel = m_compactionModel->text().trimmed();
    // An emptied prompt is the default one again: a summary needs to be asked for.
    config.compactionPrompt = m_compactionPrompt->toPlainText().trimmed().isEmpty()
                                  ? AgentConfig().compactionPrompt
                                  : m_compactionPrompt->toPlainText();
    if (m_toolTimeout->value() != m_loadedToolTimeoutS)
        config.toolTimeoutMs = m_toolTimeout->value() * 1000;
    if (m_turnTimeLimit->value() != m_loadedTurnTimeLimitS)
        config.turnTimeLimitMs = m_turnTimeLimit->value() * 1000;
    config.systemPrompt = m_systemPrompt->toPlainText();
    config.shields = m_shields->shields();
    settings.setAgentConfig(config);
    if (m_readTimeout->value() != m_loadedReadTimeoutS)
        settings.setProviderReadTimeoutMs(m_readTimeout->value() * 1000);
    m_loadedToolTimeoutS = m_toolTimeout->value();
    m_loadedTurnTimeLimitS = m_turnTimeLimit->value();
    m_loadedReadTimeoutS = m_readTimeout->value();
    ResponseLimits limits = settings.responseLimits();
    limits.maxResponseBytes = m_maxResponse->value() * ResponseLimits::MegaByte;
    limits.requestTimeoutMs = m_requestTimeout->value() * 1000;
    settings.setResponseLimits(limits);
}

int LoopPage::readTimeoutMs() const
{
    return m_readTimeout->value() * 1000;
}

void LoopPage::setProfileNames(const QStringList &names)
{
    m_shields->setProfileNames(names);
}

} // namespace Loopscope::Ui
