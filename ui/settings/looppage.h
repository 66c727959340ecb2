#pragma once

#include "ui/settings/settingspage.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class ShieldsEditor;

/*!
    Settings → Loop: the agent's limits (iterations, parallel tool calls, the
    tool calls one response may have run, what
    happens when the loop ends without an answer), the tool and provider
    timeouts, what one answer may cost (its size and the time of a request)
    the system prompt and the shields. A timeout whose field is not touched keeps
    its exact stored value, though the field shows it in whole seconds.
*/
class LoopPage final : public SettingsPage
{
    Q_OBJECT

public:
    explicit LoopPage(QWidget *parent = nullptr);

    void load(const AppSettings &settings) override;
    QString validationError() const override;
    void focusProblem() override;
    void save(AppSettings &settings) override;

    // The provider read timeout as shown (a connection test waits no longer).
    int readTimeoutMs() const;
    // The saved provider profiles the model shield may ask.
    void setProfileNames(const QStringList &names);

private:
    QSpinBox *m_maxIterations;
    QSpinBox *m_parallelTools;
    QSpinBox *m_maxToolCalls;
    QComboBox *m_postLoop;
    QSpinBox *m_toolTimeout;
    QSpinBox *m_turnTimeLimit;
    QSpinBox *m_readTimeout;
    QSpinBox *m_maxResponse;
    QSpinBox *m_requestTimeout;
    QComboBox *m_compaction;
    QSpinBox *m_compactAt;
    QLineEdit *m_compactionModel;
    QPlainTextEdit *m_compactionPrompt;
    QPlainTextEdit *m_systemPrompt;
    ShieldsEditor *m_shields; // the default agent's; an agent of the Agents page has its own
    // The values shown when loaded, so an untouched field never rounds a stored one.
    int m_loadedToolTimeoutS = 0;
    int m_loadedTurnTimeLimitS = 0;
    int m_loadedReadTimeoutS = 0;
};

} // namespace Loopscope::Ui
