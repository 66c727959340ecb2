#include "ui/session/knowledgebutton.h"

#include "agent/session/knowledgebasesmodel.h"
#include "agent/session/sessionknowledge.h"

#include <QMenu>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

KnowledgeButton::KnowledgeButton(KnowledgeBasesModel *bases, SessionKnowledge *choice, QWidget *parent)
    : QToolButton(parent)
    , m_bases(bases)
    , m_choice(choice)
{
    setObjectName(u"knowledgeButton"_s);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setPopupMode(QToolButton::InstantPopup);
    setToolTip(tr("The knowledge bases this session's agent may search"));
    setMenu(new QMenu(this));
    connect(menu(), &QMenu::aboutToShow, this, &KnowledgeButton::rebuildMenu);
    connect(m_choice, &SessionKnowledge::chosenChanged, this, &KnowledgeButton::updateText);
    updateText();
    rebuildMenu();
}

void KnowledgeButton::rebuildMenu()
{
    QMenu *list = menu();
    list->clear();
    const QStringList chosen = m_choice->chosen();
    const QStringList names = m_bases->names();
    if (names.isEmpty())
        list->addAction(tr("No knowledge base yet"))->setEnabled(false);
    for (const QString &name : names) {
        QAction *action = list->addAction(name);
        action->setCheckable(true);
        action->setChecked(chosen.contains(name));
        connect(action, &QAction::toggled, m_choice,
                [choice = m_choice, name](bool checked) { choice->setAttached(name, checked); });
    }
    list->addSeparator();
    connect(list->addAction(tr("&Manage Knowledge Bases…")), &QAction::triggered, this,
            &KnowledgeButton::manageRequested);
}

void KnowledgeButton::updateText()
{
    const qsizetype count = m_choice->chosen().size();
    //: The composer's button; the number is how many knowledge bases the session attaches
    setText(count == 0 ? tr("Knowledge") : tr("Knowledge (%1)").arg(count));
}

} // namespace Loopscope::Ui
