#pragma once

#include "agent/config/providerprofile.h"
#include "agent/trace/tracenode.h"
#include "agent/transcript/transcript.h"

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope {
class ChatSession;
class PlaygroundRun;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The playground of one recorded model call: its request as editable JSON,
    a provider profile and model to send it to, and beside the recorded
    answer every re-run of it (the variants kept under the call). Sending
    runs one request through PlaygroundRun: no tools, no loop, and the
    session's conversation stays as it was. The window closes itself when the
    session's trace is replaced (another session opened).
*/
class PlaygroundWindow final : public QWidget
{
    Q_OBJECT

public:
    // Takes run over (it becomes the window's child): it is what sends, the window only shows.
    PlaygroundWindow(ChatSession *session, int modelCallNode, const QList<ProviderProfile> &profiles,
                     PlaygroundRun *run, QWidget *parent = nullptr);
    ~PlaygroundWindow() override;

    int modelCallNode() const { return m_node; }
    QString statusText() const;

    void send();
    void cancel();
    // "Fork from here with this response" for the selected variant.
    void forkSelected();

signals:
    // A re-run was kept under the call: the session has an unsaved change.
    void variantAdded(int modelCallNode);
    void forkRequested(const Loopscope::Transcript &fork);

private:
    const ModelCallData &call() const;
    void showVariants(int select);
    void showSelectedVariant();
    void setRunning(bool running);
    void setStatus(const QString &text, bool problem);
    void onFinished(const ModelCallVariant &variant);

    QPointer<ChatSession> m_session;
    int m_node;
    QList<ProviderProfile> m_profiles;
    PlaygroundRun *m_run;

    QComboBox *m_profileBox;
    QLineEdit *m_modelEdit;
    QPlainTextEdit *m_requestEdit;
    QPushButton *m_sendButton;
    QPushButton *m_cancelButton;
    QLabel *m_status;
    QPlainTextEdit *m_recorded;
    QListWidget *m_variants;
    QPlainTextEdit *m_variantView;
    QPushButton *m_forkButton;
    QString m_syncedJsonModel;  // the JSON's options.model when the two last agreed
    QString m_syncedFieldModel; // the Model field then
};

} // namespace Loopscope::Ui
