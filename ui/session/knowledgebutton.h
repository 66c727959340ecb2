#pragma once

#include <QToolButton>

namespace Loopscope {
class KnowledgeBasesModel;
class SessionKnowledge;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The "Knowledge" button beside the message: a menu of the knowledge bases,
    each checked when the session attaches it (SessionKnowledge), and a way to
    Settings → Knowledge. Its text counts the attached bases, so what the
    session searches is in sight.
*/
class KnowledgeButton final : public QToolButton
{
    Q_OBJECT

public:
    // Neither is owned.
    KnowledgeButton(KnowledgeBasesModel *bases, SessionKnowledge *choice, QWidget *parent = nullptr);

    // The menu as it is shown now (rebuilt before each showing).
    void rebuildMenu();

signals:
    void manageRequested();

private:
    void updateText();

    KnowledgeBasesModel *m_bases;
    SessionKnowledge *m_choice;
};

} // namespace Loopscope::Ui
