#include "ui/settings/firstrunpanel.h"

#include "agent/config/providerprofile.h"
#include "agent/providers/ollamaprobe.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QLabel *textLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

FirstRunPanel::FirstRunPanel(ProviderProfileStore *profiles, OllamaProbe *probe, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles)
    , m_probe(probe)
    , m_status(textLabel(QString(), this))
    , m_modelLabel(new QLabel(tr("&Model:"), this))
    , m_models(new QComboBox(this))
    , m_useButton(new QPushButton(this))
    , m_lookAgainButton(new QPushButton(tr("&Look again"), this))
    , m_settingsButton(new QPushButton(tr("Open &Settings…"), this))
    , m_parallelExampleButton(
          new QPushButton(tr("Open an example: two tools in parallel, then a third"), this))
    , m_recoveryExampleButton(new QPushButton(tr("Open an example: wrong tool calls and the recovery"), this))
{
    Q_ASSERT(profiles);
    auto *title = textLabel(tr("Welcome to Loopscope"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.5);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto *intro
        = textLabel(tr("To chat, Loopscope needs a model to talk to: an OpenAI-compatible service, "
                       "Anthropic, Google Gemini, or an Ollama server on this computer. "
                       "Providers are added in Settings; their API keys are kept in your system keychain."),
                    this);

    m_status->setObjectName(u"ollamaStatusLabel"_s);
    m_status->setAccessibleName(tr("Ollama status"));
    m_models->setObjectName(u"ollamaModelCombo"_s);
    m_models->setAccessibleName(tr("Ollama model"));
    m_useButton->setObjectName(u"useOllamaButton"_s);
    m_lookAgainButton->setObjectName(u"lookAgainButton"_s);
    m_lookAgainButton->setAccessibleName(tr("Look for Ollama again"));
    m_settingsButton->setObjectName(u"openSettingsButton"_s);
    m_settingsButton->setAccessibleName(tr("Open Settings"));

    m_parallelExampleButton->setObjectName(u"parallelExampleButton"_s);
    m_recoveryExampleButton->setObjectName(u"recoveryExampleButton"_s);
    auto *examplesIntro = textLabel(
        tr("Or look around first: the examples are recorded sessions, opened without a provider."), this);
    auto *examples = new QVBoxLayout;
    examples->addWidget(examplesIntro);
    for (QPushButton *button : {m_parallelExampleButton, m_recoveryExampleButton}) {
        auto *line = new QHBoxLayout;
        line->addWidget(button);
        line->addStretch(1);
        examples->addLayout(line);
    }

    m_modelLabel->setBuddy(m_models);
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelLabel);
    modelRow->addWidget(m_models, 1);
    modelRow->addWidget(m_useButton);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_settingsButton);
    buttons->addWidget(m_lookAgainButton);
    buttons->addStretch(1);

    // A readable column in the middle, however wide the window.
    auto *column = new QWidget(this);
    column->setMaximumWidth(fontMetrics().averageCharWidth() * 80);
    auto *content = new QVBoxLayout(column);
    content->addWidget(title);
    content->addWidget(intro);
    content->addSpacing(fontMetrics().lineSpacing());
    content->addWidget(m_status);
    content->addLayout(modelRow);
    content->addLayout(buttons);
    content->addSpacing(fontMetrics().lineSpacing());
    content->addLayout(examples);

    // Focus follows what the user reads: the offer first, then the alternatives.
    setTabOrder(m_models, m_useButton);
    setTabOrder(m_useButton, m_settingsButton);
    setTabOrder(m_settingsButton, m_lookAgainButton);
    setTabOrder(m_lookAgainButton, m_parallelExampleButton);
    setTabOrder(m_parallelExampleButton, m_recoveryExampleButton);

    // Stretches rather than an alignment, so the wrapped labels get the height their width needs.
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column, 4);
    row->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);

    m_modelLabel->hide();
    m_models->hide();
    m_useButton->hide();
    connect(m_models, &QComboBox::currentIndexChanged, this, &FirstRunPanel::updateUseButton);
    connect(m_useButton, &QPushButton::clicked, this, &FirstRunPanel::useOllama);
    connect(m_lookAgainButton, &QPushButton::clicked, this, [this] { lookForOllama(m_probedUrl); });
    connect(m_settingsButton, &QPushButton::clicked, this, &FirstRunPanel::openSettingsRequested);
    connect(m_parallelExampleButton, &QPushButton::clicked, this,
            [this] { emit openExampleRequested(u":/examples/example-three-iterations.loopscope.json"_s); });
    connect(m_recoveryExampleButton, &QPushButton::clicked, this,
            [this] { emit openExampleRequested(u":/examples/example-error-recovery.loopscope.json"_s); });
    connect(m_probe, &OllamaProbe::found, this, &FirstRunPanel::onOllamaFound);
    connect(m_probe, &OllamaProbe::notFound, this, &FirstRunPanel::onOllamaNotFound);
}

void FirstRunPanel::lookForOllama(const QUrl &baseUrl, int timeoutMs)
{
    m_probedUrl = baseUrl;
    m_ollamaUrl.clear();
    m_models->clear();
    updateUseButton();
    m_lookAgainButton->setEnabled(false);
    m_status->setText(tr("Looking for an Ollama server at %1…").arg(baseUrl.toDisplayString()));
    m_probe->probe(baseUrl, timeoutMs);
}

void FirstRunPanel::onOllamaFound(const QUrl &baseUrl, const QStringList &models)
{
    m_lookAgainButton->setEnabled(true);
    m_ollamaUrl = baseUrl;
    m_models->addItems(models);
    if (models.isEmpty()) {
        m_status->setText(tr("An Ollama server is running at %1, but it has no models yet. Pull one in a "
                             "terminal, for example “ollama pull llama3.2”, then look again.")
                              .arg(baseUrl.toDisplayString()));
    } else {
        m_status->setText(tr("An Ollama server is running at %1 with %n model(s). Use it to start chatting "
                             "now, or add another provider in Settings.",
                             nullptr, int(models.size()))
                              .arg(baseUrl.toDisplayString()));
        m_useButton->setFocus();
    }
    updateUseButton();
}

void FirstRunPanel::onOllamaNotFound(const QString &reason)
{
    m_lookAgainButton->setEnabled(true);
    m_status->setText(tr("No Ollama server was found. %1\n\nTo use a hosted model, open Settings, add a "
                         "provider and enter its API key. To run models on this computer, install Ollama "
                         "from ollama.com, pull a model, and look again.")
                          .arg(reason));
    updateUseButton();
}

void FirstRunPanel::updateUseButton()
{
    const bool offer = !m_ollamaUrl.isEmpty() && m_models->count() > 0;
    m_models->setVisible(offer && m_models->count() > 1);
    m_useButton->setVisible(offer);
    m_useButton->setEnabled(offer);
    m_modelLabel->setVisible(offer && m_models->count() > 1);
    QString model = m_models->currentText();
    m_useButton->setText(tr("&Use Ollama with %1").arg(model.replace(u'&', u"&&"_s)));
    m_useButton->setAccessibleName(tr("Use Ollama with %1").arg(m_models->currentText()));
}

void FirstRunPanel::useOllama()
{
    const QString model = m_models->currentText();
    if (m_ollamaUrl.isEmpty() || model.isEmpty())
        return;
    const QStringList taken = [this] {
        QStringList ids;
        for (const ProviderProfile &profile : m_profiles->profiles())
            ids.append(profile.id);
        return ids;
    }();
    QString id = u"ollama"_s;
    for (int n = 2; taken.contains(id); ++n)
        id = u"ollama-"_s + QString::number(n);

    ProviderProfile profile;
    profile.id = id;
    profile.name = tr("Ollama (%1)").arg(model);
    profile.kind = ProviderKind::Ollama;
    // The usual address stays implicit, so the profile follows the default.
    profile.baseUrl = m_ollamaUrl == defaultBaseUrl(ProviderKind::Ollama) ? QUrl() : m_ollamaUrl;
    profile.model = model;
    profile.defaults.model = model;
    m_profiles->save(profile);
    m_profiles->setDefaultProfileId(id);

    m_useButton->setEnabled(false);
    m_status->setText(
        tr("Saved the profile “%1” as the default. You can change it in Settings.").arg(profile.name));
    emit profileCreated(id);
}

} // namespace Loopscope::Ui
