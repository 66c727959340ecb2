#include "ui/playground/playgroundwindow.h"

#include "agent/playground/playgroundrequest.h"
#include "agent/playground/playgroundrun.h"
#include "agent/playground/variantfork.h"
#include "agent/session/chatsession.h"
#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// An answer as a person reads it: the text, the calls it asks for, how it ended and what it cost.
QString describeAnswer(const ModelResponse &response, const QString &error, int httpStatus, qint64 durationUs)
{
    QStringList lines;
    if (!error.isEmpty()) {
        lines << (httpStatus > 0 ? PlaygroundWindow::tr("Failed (HTTP %1): %2").arg(httpStatus).arg(error)
                                 : PlaygroundWindow::tr("Failed: %1").arg(error));
    } else {
        lines << response.text;
        for (const ToolCall &call : response.toolCalls)
            lines << PlaygroundWindow::tr("→ calls %1(%2)").arg(call.name, call.arguments);
        lines << QString()
              << PlaygroundWindow::tr("Finish: %1 · model %2")
                     .arg(finishReasonName(response.finishReason), response.model)
              << PlaygroundWindow::tr("Tokens: %1 in, %2 out")
                     .arg(response.usage.inputTokens)
                     .arg(response.usage.outputTokens);
    }
    lines << PlaygroundWindow::tr("Time: %1 s").arg(double(durationUs) / 1e6, 0, 'f', 2);
    return lines.join(u'\n');
}

// The profile the call went to, when it is still there: the one its agent names (an agent on a
// profile of its own), else the session's; else the first that speaks the protocol it was recorded
// on; -1 when none does.
qsizetype profileOfCall(const ChatSession *session, int modelCallNode, const QList<ProviderProfile> &profiles)
{
    const QString recordedKind = session->trace()->node(modelCallNode).data<ModelCallData>().provider;
    const QString agentsOwn
        = TurnNodeFinder::agentDefinitionOf(*session->trace(), modelCallNode).value(u"provider"_s).toString();
    const auto &sessions = session->setup().provider;
    const QString wanted = !agentsOwn.isEmpty() ? agentsOwn : sessions ? sessions->profile.name : QString();
    qsizetype sameKind = -1;
    for (qsizetype i = 0; i < profiles.size(); ++i) {
        if (providerKindName(profiles.at(i).kind) != recordedKind)
            continue;
        if (profiles.at(i).name == wanted)
            return i;
        if (sameKind < 0)
            sameKind = i;
    }
    return sameKind;
}

} // namespace

PlaygroundWindow::PlaygroundWindow(ChatSession *session, int modelCallNode,
                                   const QList<ProviderProfile> &profiles, PlaygroundRun *run,
                                   QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_node(modelCallNode)
    , m_profiles(profiles)
    , m_run(run)
    , m_profileBox(new QComboBox)
    , m_modelEdit(new QLineEdit)
    , m_requestEdit(new QPlainTextEdit)
    , m_sendButton(new QPushButton(tr("&Send")))
    , m_cancelButton(new QPushButton(tr("&Cancel")))
    , m_status(new QLabel)
    , m_recorded(new QPlainTextEdit)
    , m_variants(new QListWidget)
    , m_variantView(new QPlainTextEdit)
    , m_forkButton(new QPushButton(tr("&Fork from Here with This Response")))
{
    Q_ASSERT(session && session->trace()->isValid(modelCallNode));
    setAttribute(Qt::WA_DeleteOnClose);
    run->setParent(this);
    setWindowTitle(tr("Playground — %1").arg(session->trace()->node(modelCallNode).label));
    m_profileBox->setObjectName(u"profileBox"_s);
    m_modelEdit->setObjectName(u"modelEdit"_s);
    m_requestEdit->setObjectName(u"requestEdit"_s);
    m_sendButton->setObjectName(u"sendButton"_s);
    m_cancelButton->setObjectName(u"cancelButton"_s);
    m_status->setObjectName(u"statusLabel"_s);
    m_recorded->setObjectName(u"recordedResponse"_s);
    m_variants->setObjectName(u"variantList"_s);
    m_variantView->setObjectName(u"variantResponse"_s);
    m_forkButton->setObjectName(u"forkButton"_s);

    const ModelCallData &recorded = call();
    for (const ProviderProfile &profile : profiles)
        m_profileBox->addItem(profile.name);
    m_profileBox->setCurrentIndex(qMax(0, int(profileOfCall(session, modelCallNode, profiles))));
    m_modelEdit->setText(recorded.request.options().model.isEmpty() ? recorded.model
                                                                    : recorded.request.options().model);
    m_syncedJsonModel = recorded.request.options().model;
    m_syncedFieldModel = m_modelEdit->text().trimmed();
    m_modelEdit->setPlaceholderText(tr("The profile's model"));
    connect(m_profileBox, &QComboBox::activated, this,
            [this](int index) { m_modelEdit->setText(m_profiles.value(index).model); });
    m_requestEdit->setPlainText(PlaygroundRequest::toText(recorded.request.whole()));
    m_requestEdit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_recorded->setReadOnly(true);
    m_recorded->setPlainText(describeAnswer(recorded.response, recorded.error, 0,
                                            session->trace()->node(modelCallNode).durationUs()));
    m_variantView->setReadOnly(true);
    m_status->setWordWrap(true);

    auto *target = new QFormLayout;
    target->addRow(tr("&Provider:"), m_profileBox);
    target->addRow(tr("&Model:"), m_modelEdit);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_sendButton);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch();
    auto *requestBox = new QGroupBox(tr("Request (messages, tools and options as JSON)"));
    auto *requestLayout = new QVBoxLayout(requestBox);
    requestLayout->addLayout(target);
    requestLayout->addWidget(m_requestEdit, 1);
    requestLayout->addLayout(buttons);
    requestLayout->addWidget(m_status);

    auto *recordedBox = new QGroupBox(tr("Recorded response"));
    (new QVBoxLayout(recordedBox))->addWidget(m_recorded);
    auto *variantsBox = new QGroupBox(tr("Re-runs"));
    auto *variantsLayout = new QVBoxLayout(variantsBox);
    variantsLayout->addWidget(m_variants);
    variantsLayout->addWidget(m_variantView, 2);
    variantsLayout->addWidget(m_forkButton);
    auto *answers = new QSplitter(Qt::Vertical);
    answers->addWidget(recordedBox);
    answers->addWidget(variantsBox);

    auto *splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(requestBox);
    splitter->addWidget(answers);
    (new QVBoxLayout(this))->addWidget(splitter);
    resize(1000, 700);

    connect(m_sendButton, &QPushButton::clicked, this, &PlaygroundWindow::send);
    connect(m_cancelButton, &QPushButton::clicked, this, &PlaygroundWindow::cancel);
    connect(m_forkButton, &QPushButton::clicked, this, &PlaygroundWindow::forkSelected);
    connect(m_variants, &QListWidget::currentRowChanged, this, &PlaygroundWindow::showSelectedVariant);
    connect(m_run, &PlaygroundRun::textDelta, this, [this](const QString &text) {
        m_variantView->moveCursor(QTextCursor::End);
        m_variantView->insertPlainText(text);
    });
    connect(m_run, &PlaygroundRun::finished, this, &PlaygroundWindow::onFinished);
    // Node ids mean nothing once the trace holds another session.
    connect(session->trace(), &Trace::aboutToReset, this, &QWidget::close);
    connect(session, &QObject::destroyed, this, &QWidget::close);

    showVariants(int(recorded.variants.size()) - 1);
    setRunning(false);
    if (profiles.isEmpty())
        setStatus(tr("No provider profile is configured: add one in Settings → Providers."), true);
}

PlaygroundWindow::~PlaygroundWindow() = default;

const ModelCallData &PlaygroundWindow::call() const
{
    return m_session->trace()->node(m_node).data<ModelCallData>();
}

QString PlaygroundWindow::statusText() const
{
    return m_status->text();
}

void PlaygroundWindow::send()
{
    if (m_run->isRunning())
        return;
    const int index = m_profileBox->currentIndex();
    if (index < 0 || index >= m_profiles.size()) {
        setStatus(tr("Pick a provider profile to send to."), true);
        return;
    }
    QString error;
    std::optional<ModelRequest> request = PlaygroundRequest::fromText(m_requestEdit->toPlainText(), &error);
    if (!request) {
        setStatus(error, true);
        return;
    }
    // Whichever of the two the user changed last says the model: the Model field, or the JSON's
    // options.model (which the field no longer silently overrides).
    const QString typed = m_modelEdit->text().trimmed();
    const QString inJson = request->options.model;
    const bool jsonChanged = inJson != m_syncedJsonModel;
    const bool fieldChanged = typed != m_syncedFieldModel;
    if (!typed.isEmpty() && (inJson.isEmpty() || fieldChanged || !jsonChanged))
        request->options.model = typed;
    m_syncedJsonModel = inJson;
    m_syncedFieldModel = request->options.model;
    m_modelEdit->setText(request->options.model);
    m_variants->setCurrentRow(-1);
    m_variantView->clear();
    setRunning(true);
    setStatus(tr("Sending to %1…").arg(m_profiles.at(index).name), false);
    m_run->start(m_profiles.at(index), *request);
}

void PlaygroundWindow::cancel()
{
    if (!m_run->isRunning())
        return;
    m_run->cancel();
    setRunning(false);
    setStatus(tr("Cancelled: nothing was kept."), false);
}

void PlaygroundWindow::onFinished(const ModelCallVariant &variant)
{
    setRunning(false);
    if (!m_session || !m_session->trace()->isValid(m_node))
        return;
    addModelCallVariant(*m_session->trace(), m_node, variant);
    emit variantAdded(m_node);
    showVariants(int(call().variants.size()) - 1);
    setStatus(variant.succeeded() ? tr("Answered; kept as re-run %1.").arg(call().variants.size())
                                  : tr("The provider failed; kept as re-run %1.").arg(call().variants.size()),
              !variant.succeeded());
}

void PlaygroundWindow::forkSelected()
{
    const int row = m_variants->currentRow();
    if (!m_session || row < 0 || row >= call().variants.size()) {
        setStatus(tr("Pick a re-run to fork with."), true);
        return;
    }
    QString error;
    const std::optional<Transcript> fork
        = VariantFork::fork(m_session->toTranscript(), call().variants.at(row), &error);
    if (!fork) {
        setStatus(error, true);
        return;
    }
    emit forkRequested(*fork);
}

void PlaygroundWindow::showVariants(int select)
{
    m_variants->clear();
    const QList<ModelCallVariant> &variants = call().variants;
    for (qsizetype i = 0; i < variants.size(); ++i) {
        const ModelCallVariant &variant = variants.at(i);
        const QString outcome = variant.succeeded()
                                    ? tr("%n token(s)", nullptr, int(variant.response.usage.total()))
                                    : tr("failed");
        m_variants->addItem(
            tr("%1. %2 · %3 · %4").arg(i + 1).arg(variant.profileName, variant.model, outcome));
    }
    m_variants->setCurrentRow(select);
    showSelectedVariant();
}

void PlaygroundWindow::showSelectedVariant()
{
    const int row = m_variants->currentRow();
    const bool selected = m_session && row >= 0 && row < call().variants.size();
    m_forkButton->setEnabled(selected && !m_run->isRunning());
    m_forkButton->setToolTip(QString());
    if (!selected)
        return;
    const ModelCallVariant &variant = call().variants.at(row);
    // Offered only when it would work; the reason it would not is on the button.
    QString whyNot;
    if (!VariantFork::fork(m_session->toTranscript(), variant, &whyNot)) {
        m_forkButton->setEnabled(false);
        m_forkButton->setToolTip(whyNot);
    }
    m_variantView->setPlainText(describeAnswer(variant.response, variant.error, variant.httpStatus,
                                               variant.endedUs - variant.startedUs));
}

void PlaygroundWindow::setRunning(bool running)
{
    m_sendButton->setEnabled(!running && !m_profiles.isEmpty());
    m_cancelButton->setEnabled(running);
    m_forkButton->setEnabled(!running && m_variants->currentRow() >= 0);
    if (!running)
        showSelectedVariant();
}

void PlaygroundWindow::setStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? u"color: #b3261e"_s : QString());
}

} // namespace Loopscope::Ui
