#pragma once

#include "ui/settings/knowledgebasedialog.h"
#include "ui/settings/settingspage.h"

#include <QPointer>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QListView;
class QProgressBar;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope {
class KnowledgeBasesModel;
class ProviderProfileStore;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    Settings → Knowledge: the knowledge bases with their status (files,
    passages, size on disk, last indexing, embedding model, skipped files and
    problems), Add, Remove (asked first) and Re-index, the progress of a run
    with Cancel, and whether the bases a session attaches are also searched
    before each turn (automatic retrieval). Adding, removing and indexing act
    at once on the model the window owns, which keeps indexing after the
    dialog closes; only the retrieval setting waits for Apply.
*/
class KnowledgePage final : public SettingsPage
{
    Q_OBJECT

public:
    // Neither is owned; \a profiles offers the embedding providers.
    KnowledgePage(KnowledgeBasesModel *model, const ProviderProfileStore *profiles,
                  QWidget *parent = nullptr);

    void load(const AppSettings &settings) override;
    void save(AppSettings &settings) override;

    QListView *listView() const { return m_list; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *reindexButton() const { return m_reindex; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *detailsLabel() const { return m_details; }
    QComboBox *retrievalCombo() const { return m_retrieval; }
    // The Add dialog while it is open.
    KnowledgeBaseDialog *addDialog() const { return m_addDialog; }

private:
    void openAddDialog();
    void askToRemove();
    void reindexSelected();
    void cancelSelected();
    QString selectedName() const;
    void refresh();

    KnowledgeBasesModel *m_model;
    const ProviderProfileStore *m_profiles;
    QListView *m_list;
    QLabel *m_details;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_reindex;
    QComboBox *m_retrieval;
    QLabel *m_status;
    QPointer<KnowledgeBaseDialog> m_addDialog;
};

} // namespace Loopscope::Ui
