#pragma once

#include <QStringList>
#include <QUrl>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope {
class OllamaProbe;
class ProviderProfileStore;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    What the main window shows instead of the chat while no provider is
    configured: what Loopscope needs, and the shortest way there. When an
    Ollama server answers on this computer it offers "Use Ollama with
    <model>", which saves a default profile for it; otherwise it explains how
    to add a provider and offers the settings. Beside the setup it offers the
    two bundled example sessions, which open without any provider.
*/
class FirstRunPanel final : public QWidget
{
    Q_OBJECT

public:
    // The probe looks for a local Ollama server; not owned, it must outlive the panel.
    FirstRunPanel(ProviderProfileStore *profiles, OllamaProbe *probe, QWidget *parent = nullptr);

    // Looks for an Ollama server; the main window calls it when it shows the panel.
    void lookForOllama(const QUrl &baseUrl = QUrl(QStringLiteral("http://localhost:11434")),
                       int timeoutMs = 1500);

signals:
    void profileCreated(const QString &id);
    void openSettingsRequested();
    // One of the bundled examples (a resource path under :/examples), which needs no provider.
    void openExampleRequested(const QString &resourcePath);

private:
    void onOllamaFound(const QUrl &baseUrl, const QStringList &models);
    void onOllamaNotFound(const QString &reason);
    void updateUseButton();
    void useOllama();

    ProviderProfileStore *m_profiles;
    OllamaProbe *m_probe;
    QLabel *m_status;
    QLabel *m_modelLabel;
    QComboBox *m_models;
    QPushButton *m_useButton;
    QPushButton *m_lookAgainButton;
    QPushButton *m_settingsButton;
    QPushButton *m_parallelExampleButton;
    QPushButton *m_recoveryExampleButton;
    QUrl m_probedUrl;
    QUrl m_ollamaUrl; // where a server answered; empty when none did
};

} // namespace Loopscope::Ui
